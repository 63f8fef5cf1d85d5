#!/usr/bin/env python3
"""The kernel matrix's judge: decodes what tests/kernels/guest.sh shipped on its channel and
checks it, on the host, so the guest needs nothing but busybox.

    check.py CHANNEL OUTDIR [--host] [--prefix K] [--why TEXT]

Writes each case's files under OUTDIR/CASE/ and prints one line per check and figure:
    PASS NAME | FAIL NAME REASON | SKIP NAME REASON   (tests/kernels/matrix.sh reports them)
    FIG KEY VALUE                                     (figures for the per-kernel summary)
    NOTE TEXT                                         (detail shown under a failure)
Every check is printed for every kernel, also when its case never ran (then it fails with
the reason), so that each kernel's pass/fail counts cover the same list.

The assertions are those of tests/integration/30_run.sh and 20_doctor.sh with their
timing-based bounds dropped: under TCG the guest runs ~10x slower and its vCPUs are host
threads, so ages and latencies say nothing about the kernel.  Counts, causes, states and
CPU pairs are kept exact.
"""
import argparse
import base64
import gzip
import json
import os
import re
import sys

# where the guest found the tunable (env's facts): debugfs since 5.13, a sysctl before
TUNABLE = "/sys/kernel/debug/sched/migration_cost_ns"
DEFAULT_COST_NS = 500000
# ftrace_cross: two stamps of one move, BPF's and ftrace's, taken by two callbacks of the
# same tracepoint, at most this far apart when the host stopped the vCPU between them: 1 ms
# on the host, 10 x the tolerance under TCG (12.1 ms once, on 6.1 with the host at load 11)
STALL_NS = 1000000


def parse_channel(path, outdir):
    """Returns (hello, cases, done): cases maps a case to {start, end, dur}; files are written
    under outdir/CASE/.  A block cut short (the guest died mid-file) is dropped."""
    hello, done, cases = None, None, {}
    cur = None  # (case, file, [base64 lines])
    try:
        text = open(path, "rb").read().decode("ascii", "replace")
    except OSError:
        return None, {}, None
    for raw in text.splitlines():
        line = raw.strip("\r")
        if cur is not None:
            if line == "MT-EOF":
                case, name, chunks = cur
                cur = None
                try:
                    data = gzip.decompress(base64.b64decode("".join(chunks)))
                except (ValueError, OSError, EOFError) as e:
                    print("NOTE %s/%s: undecodable on the channel (%s)" % (case, name, e))
                    continue
                d = os.path.join(outdir, case)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, os.path.basename(name)), "wb") as f:
                    f.write(data)
            else:
                cur[2].append(line)
            continue
        w = line.split()
        if not w or not w[0].startswith("MT-"):
            continue
        if w[0] == "MT-HELLO" and len(w) >= 3:
            hello = {"uptime": float(w[1]), "uname": w[2]}
        elif w[0] == "MT-CASE" and len(w) >= 3:
            cases[w[1]] = {"start": float(w[2]), "end": None, "dur": None}
            os.makedirs(os.path.join(outdir, w[1]), exist_ok=True)
        elif w[0] == "MT-FILE" and len(w) >= 3:
            cur = (w[1], w[2], [])
        elif w[0] == "MT-END" and len(w) >= 4 and w[1] in cases:
            cases[w[1]].update(end=float(w[2]), dur=float(w[3]))
        elif w[0] == "MT-DONE" and len(w) >= 2:
            done = float(w[1])
    return hello, cases, done


class Case:
    """One case's shipped files."""

    def __init__(self, outdir, name, info):
        self.name, self.dir, self.info = name, os.path.join(outdir, name), info

    @property
    def complete(self):
        return self.info is not None and self.info["end"] is not None

    def text(self, f):
        try:
            return open(os.path.join(self.dir, f), encoding="utf-8", errors="replace").read()
        except OSError:
            return None

    def rc(self, prefix):
        t = self.text(prefix + ".rc")
        try:
            return int(t.strip())
        except (AttributeError, ValueError):
            return None

    def json(self, f):
        try:
            return json.load(open(os.path.join(self.dir, f)))
        except (OSError, ValueError):
            return None



class BpfSide(Case):
    """The BPF half of a workload case, which guest.sh's mt_run traces with both backends at
    once, read as a case of its own: its run.* are the BPF run's bpf.*, and its run.out also
    holds the workload's own output (work.out), as `migtrace run -- CMD` would print it."""
    MAP = {"run.json": "bpf.json", "run.err": "bpf.err", "run.rc": "bpf.rc"}

    def __init__(self, c):
        super().__init__(os.path.dirname(c.dir), c.name, c.info)

    def text(self, f):
        if f == "run.out":
            parts = [Case.text(self, "bpf.out"), Case.text(self, "work.out")]
            return None if parts == [None, None] else "".join(p or "" for p in parts)
        return Case.text(self, self.MAP.get(f, f))

    def json(self, f):
        return Case.json(self, self.MAP.get(f, f))

def one_line(s, n=400):
    s = " ".join(str(s).split())
    return s if len(s) <= n else s[: n - 3] + "..."


# Verifier lines that are a trace of the walk or bookkeeping, not the finding (as
# mt_verifier_verdict() in user/capture/bpf_util.c).
NOISE = ("processed ", "verification time ", "stack depth ", "mark_precise", "from ",
         "last_idx ", "parent ", "regs=", "func#", "Validating ", "Func#", "Global function ")


def verifier_verdict(err):
    """(prog, reason, source) from libbpf's output of a failed load, or None."""
    if not err:
        return None
    lines = [re.sub(r"^libbpf: ", "", l) for l in err.splitlines()]
    fail = None
    for i, l in enumerate(lines):
        m = re.match(r"prog '([^']+)': failed to load", l)
        if m:
            fail = (i, m.group(1))
    if not fail:
        return None
    end, prog = fail
    begin = None
    for i in range(end):
        if lines[i].startswith("prog '%s': -- BEGIN PROG LOAD LOG --" % prog):
            begin = i + 1
    if begin is None:
        return prog, "refused without a log", ""
    reason, source = "", ""
    for l in lines[begin:end]:
        if l.startswith("-- END PROG LOAD LOG --"):
            break
        if l.startswith(";"):
            source = l[1:].strip()
        elif l.strip() and not l[0].isdigit() and not l.startswith(NOISE):
            reason = l.strip()
    return prog, reason, source


def split_moves(migs):
    """(affinity moves, other moves after the first affinity move) of one selfmig task.
    selfmig pins itself to one CPU before its first move and is pinned to one CPU from then
    on, so the balancer can move it only before that: such a move (the RT kernel's balancer
    pulled it once at start) is real and counted, but is not one of the 23."""
    aff = [r for r in migs if r["cause"] == "affinity"]
    first = aff[0]["ts_ns"] if aff else None
    late = [r for r in migs if r["cause"] != "affinity" and first is not None and r["ts_ns"] > first]
    return aff, late


class Judge:
    def __init__(self, outdir, cases, why, host, prefix, uname=""):
        self.outdir, self.cases, self.why, self.host = outdir, cases, why, host
        # PREEMPT_RT's balancer was never seen to active-balance (0 in 7 runs of 6.1-rt,
        # 8-16 per run on 6.1-cloud under the same emulation): there the records that do
        # say active balance are checked, their count is not required
        self.rt = "-rt" in uname
        m = re.match(r"(\d+)\.(\d+)", uname)
        self.version = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        self.load_failure = None  # one line naming the rejected program, once known
        # How far apart the two backends may stamp the same move, and its age: on the host
        # 50 µs (37_ftrace.sh measured 28.6 µs at most there).  Under TCG with one host
        # thread for both vCPUs (thread=single) a vCPU stands still while the other runs,
        # between any two probes: the first matrix run saw the same move 2-3 ms apart (6.12
        # wakeup, 6.1-rt wakeup) and ages 2.28 ms apart (6.12 family).
        self.tol_ns = 50000 if host else 10000000
        # what the checks that need a loaded tracer say when it did not load: a pointer to
        # the one check that names the verifier's line
        self.load_pointer = "the verifier rejected it: see %srun_loads" % (prefix + "_" if prefix else "")

    def case(self, name):
        return Case(self.outdir, name, self.cases.get(name))

    def result(self, name, ok, reason=""):
        if ok:
            print("PASS %s" % name)
        else:
            print("FAIL %s %s" % (name, one_line(reason) or "failed"))

    def missing(self, c):
        """Why case c has nothing to check, or None when it completed."""
        if c.info is None:
            return "case %s did not run (%s)" % (c.name, self.why or "the suite stopped before it")
        if c.info["end"] is None:
            return "case %s started but never finished (%s)" % (
                c.name, self.why or "the suite stopped in it")
        return None

    def run_problem(self, c, prefix="run", json_file="run.json"):
        """Why a `migtrace run` of case c left no run record, or None."""
        rc = c.rc(prefix)
        d = c.json(json_file)
        if d is not None:
            return None
        err = (c.text(prefix + ".err") or "") + (c.text(prefix + ".out") or "")
        if rc in (124, 137):
            return "migtrace timed out in the guest (exit %d): killed after the case timeout" % rc
        if "loading the BPF programs failed" in err and self.load_failure:
            return "migtrace run cannot load here: " + self.load_pointer
        last = [l for l in err.splitlines() if l.startswith("migtrace")] or err.strip().splitlines()
        return "no run record (migtrace exit %s): %s" % (rc, last[-1] if last else "no output")

    def checks(self, case_name, names, fn, bpf=False):
        """Runs fn(case) -> {name: (ok, reason)}; every name in names is reported.  bpf:
        fn gets the case's BPF half (BpfSide)."""
        c = self.case(case_name)
        if bpf:
            c = BpfSide(c)
        why = self.missing(c)
        got = {}
        if why is None:
            try:
                got = fn(c)
            except Exception as e:  # a check that crashes is a failure, with its reason
                why = "checking %s raised %s: %s" % (case_name, type(e).__name__, e)
        for n in names:
            if why is not None:
                self.result(n, False, why)
            elif n in got and got[n] is None:
                pass  # reported by fn itself (a skip)
            else:
                ok, reason = got.get(n, (False, "check produced no result"))
                self.result(n, ok, reason)
        return c

    # ---- the cases -------------------------------------------------------------------

    def env(self):
        c = self.case("env")
        facts = {}
        for l in (c.text("facts") or "").splitlines():
            k, _, v = l.partition(" ")
            facts[k] = v
        return facts

    def doctor(self):
        def fn(c):
            out, rc = c.text("doctor.out") or "", c.rc("doctor")
            bad = [l for l in out.splitlines() if l.startswith("missing")]

            def said(name):
                got = [l for l in out.splitlines() if re.match(r"\w+ +%s " % name, l)]
                return got[0] if got else "no '%s' line" % name
            # what the BPF object takes beyond 5.10: task storage (5.11), atomics (5.12)
            feat = said("BPF features")
            feat_ok = (feat.startswith("ok ") and "all here" in feat) if self.version >= (5, 12) \
                else (feat.startswith("limited ") and "no task storage" in feat)
            # cache-aware scheduling (CONFIG_SCHED_CACHE) from 7.2: its knobs said
            llc = said("cache-aware balancing")
            # (Debian's 7.2 and 7.3-rc guests have it; the host's kernel may or may not)
            absent = "cache-aware scheduling: not in this kernel" in llc
            present = re.search(r"preferred_llc is in this kernel's BTF \(llc_balancing: "
                                r"(enabled \d|its knobs not readable)", llc)
            llc_ok = (absent or present) if self.host else \
                present and "enabled" in present.group(0) if self.version >= (7, 2) else absent
            return {
                "doctor_exit0": (rc == 0, "doctor exit %s: %s" % (rc, " | ".join(bad) or out[-300:])),
                "doctor_run_can_work": ("migtrace run can work here" in out,
                                        "doctor does not say 'migtrace run can work here': "
                                        + (" | ".join(bad) or out[-300:])),
                "doctor_bpf_features": (feat_ok, "kernel %d.%d: %s" % (self.version + (feat,))),
                "doctor_cache_aware": (bool(llc_ok), "kernel %d.%d: %s" % (self.version + (llc,))),
            }
        self.checks("doctor", ["doctor_exit0", "doctor_run_can_work", "doctor_bpf_features",
                               "doctor_cache_aware"], fn)

    def run_loads(self):
        c = self.case("run_loads")
        if c.complete:
            v = verifier_verdict(c.text("run.err"))
            if v:
                prog, reason, source = v
                self.load_failure = "the verifier rejected prog '%s': %s%s" % (
                    prog, reason, " (at %s)" % source if source else "")
                print("FIG verifier %s" % self.load_failure)

        def fn(c):
            rc = c.rc("run")
            if rc == 0:
                return {"run_loads": (True, "")}
            err = c.text("run.err") or ""
            first = [l for l in err.splitlines() if l.startswith("migtrace")]
            return {"run_loads": (False, "migtrace run -- true: exit %s: %s%s" % (
                rc, self.load_failure or "", "" if self.load_failure else
                (first[0] if first else err.strip()[-300:])))}
        self.checks("run_loads", ["run_loads"], fn)

    def scope(self):
        """run -a and run --cgroup (the cgroup v2 root) load, attach, end at --duration
        with status 0 and print their counts."""
        def fn(c):
            got = {}
            for n in ("all", "cgroup"):
                rc, out = c.rc(n), c.text(n + ".out") or ""
                err = c.text(n + ".err") or ""
                first = [l for l in err.splitlines() if l.startswith("migtrace")]
                got["scope_%s_runs" % n] = (
                    rc == 0 and re.search(r"^migrations: \d+ \(\d+ traced tasks\)", out, re.M)
                    is not None, "migtrace run %s: exit %s: %s" % (
                        "-a" if n == "all" else "--cgroup", rc,
                        first[0] if first else one_line(err.strip()[-300:])))
            return got
        self.checks("scope", ["scope_all_runs", "scope_cgroup_runs"], fn)

    def selfmig_run(self, c, mode, wfile="run.out"):
        """A selfmig case's run record and the pid selfmig printed (in wfile: the ftrace
        cases' workload prints to work.out): (d, pid, None), or (None, None, why) when there
        is nothing to judge."""
        out = c.text(wfile) or ""
        m = re.search(r"^selfmig %s pid (\d+) " % mode, out, re.M)
        prob = self.run_problem(c)
        if prob or not m:
            return None, None, prob or "selfmig printed no pid: " + one_line(out[-300:])
        return c.json("run.json"), int(m.group(1)), None

    def selfmig_sleeping(self):
        def fn(c):
            d, pid, why = self.selfmig_run(c, "sleeping")
            if why:
                return {n: (False, why) for n in ("selfmig_sleeping_exit0", "selfmig_sleeping_23",
                                                  "selfmig_sleeping_cause", "selfmig_sleeping_src_dst")}
            allm = [r for r in d["migrations"] if r["pid"] == pid]
            migs, late = split_moves(allm)
            moves = [l.split() for l in (c.text("run.out") or "").splitlines()
                     if l.startswith("move ")]
            print("FIG selfmig_sleeping %d/23%s (attempts %s)" % (
                len(migs), " +%d before pinning" % (len(allm) - len(migs)) if len(allm) > len(migs) else "",
                (c.text("attempts") or "?").strip()))
            # running (the stopper moved it) only where selfmig saw the thread awake at
            # the move: late, or main_state not S (TCG stalls a vCPU for ms at times)
            def awake(i):
                mv = moves[i] if i < len(moves) else []
                return len(mv) > 12 and (mv[10] == "1" or mv[12] != "S")
            odd = [(r["cause"], r["state"], r["src_cpu"], r["dst_cpu"]) for i, r in enumerate(migs)
                   if not (r["cause"] == "affinity" and r["state"] in
                           ("waking", "queued") + (("running",) if awake(i) else ()))]
            odd += [(r["cause"], r["state"], r["src_cpu"], r["dst_cpu"]) for r in late]
            # Same moves, same CPU pairs, in order.  The age bounds of 30_run.sh (the sleep
            # +- 0.5 ms, most moves inside the sleep) are timing and are dropped under TCG.
            pairs = [(int(mv[2]), int(mv[3])) for mv in moves]
            got = [(r["src_cpu"], r["dst_cpu"]) for r in migs]
            return {
                "selfmig_sleeping_exit0": (c.rc("run") == 0, "migtrace exit %s" % c.rc("run")),
                "selfmig_sleeping_23": (len(migs) == 23, "%d affinity migrations of pid %d, expected 23: %s" % (
                    len(migs), pid, [(r["cause"], r["state"], r["src_cpu"], r["dst_cpu"]) for r in allm])),
                # moved at its wakeup (waking), or by the helper itself if the sleep ended first
                "selfmig_sleeping_cause": (migs and not odd, "not affinity/waking|queued (or running where selfmig saw it awake): %s" % (odd or "no records")),
                "selfmig_sleeping_src_dst": (len(pairs) == 23 and pairs == got,
                                             "selfmig moved %s, migtrace saw %s" % (pairs, got)),
            }
        self.checks("selfmig_sleeping", ["selfmig_sleeping_exit0", "selfmig_sleeping_23",
                                         "selfmig_sleeping_cause", "selfmig_sleeping_src_dst"], fn,
                    bpf=True)

    def selfmig_running(self):
        names = ["selfmig_running_exit0", "selfmig_running_23", "selfmig_running_cause",
                 "selfmig_src_dst_alternate"]

        def fn(c):
            d, pid, why = self.selfmig_run(c, "running")
            if why:
                return {n: (False, why) for n in names}
            allm = [r for r in d["migrations"] if r["pid"] == pid]
            migs, late = split_moves(allm)
            # The stopper moves it: affinity, run by migration/N.  Where the caller blocks in
            # sched_setaffinity first (the host's 6.18), the stopper's wake-up places it:
            # waking.  On 6.12 the stopper, woken on the caller's own CPU, preempts the
            # caller before it blocks (also with preempt=full) and moves it queued: running,
            # aged 0 by definition.  And when the caller blocked, was woken, and was still
            # queued on its CPU when the stopper ran there (seen on the host: 3 of 23 once,
            # a few µs off CPU), the stopper moves it queued.  Each is a move by the
            # stopper; 30_run.sh's age bounds (each < 1 ms, median < 100 us) are timing and
            # are dropped under TCG.
            # A balance pass may get there first: the affinity changed, the task queued on a
            # CPU it may no longer use, the balancer of the allowed CPU (in a softirq, in
            # whatever task ran there: kworker/0:2, 690 us queued, on 6.1 under TCG once)
            # moves it: affinity by its cause (src not allowed), queued, on_rq migrating.
            odd = [(r["cause"], r["state"], r["age_ns"], r["by_comm"]) for r in migs + late
                   if not (r["cause"] == "affinity" and (
                       (r["by_comm"].startswith("migration/")
                        and (r["state"] in ("waking", "queued")
                             or (r["state"] == "running" and r["age_ns"] == 0)))
                       or (r["state"] == "queued" and r["on_rq"] == 2)))]
            states = {}
            for r in migs:
                states[r["state"]] = states.get(r["state"], 0) + 1
            print("FIG selfmig_running %d/23%s (%s)" % (
                len(migs), " +%d before pinning" % (len(allm) - len(migs)) if len(allm) > len(migs) else "",
                ", ".join("%s %d" % kv for kv in sorted(states.items()))))
            alt = all(a["dst_cpu"] == b["src_cpu"] and a["src_cpu"] != a["dst_cpu"]
                      for a, b in zip(migs, migs[1:]))
            return {
                "selfmig_running_exit0": (c.rc("run") == 0, "migtrace exit %s" % c.rc("run")),
                "selfmig_running_23": (len(migs) == 23, "%d affinity migrations of pid %d, expected 23: %s" % (
                    len(migs), pid, [(r["cause"], r["state"], r["by_comm"]) for r in allm])),
                "selfmig_running_cause": (migs and not odd, "not affinity by migration/N, waking, queued or running at age 0: %s" % (odd or "no records")),
                "selfmig_src_dst_alternate": (migs and alt, "CPU pairs do not alternate: %s" % (
                    [(r["src_cpu"], r["dst_cpu"]) for r in migs])),
            }
        self.checks("selfmig_running", names, fn, bpf=True)

    def family(self):
        names = ["family_exit0", "outsider_not_counted", "thread_counted_5", "child_counted_7"]

        def fn(c):
            out, other = c.text("run.out") or "", c.text("other.out") or ""
            d = c.json("run.json")
            prob = self.run_problem(c)
            if prob:
                return {n: (False, prob) for n in names}
            tid = re.search(r"^thread (\d+) ", out, re.M)
            cpid = re.search(r"^child (\d+) ", out, re.M)
            opid = re.search(r"^selfmig running pid (\d+) ", other, re.M)
            migs = d["migrations"]

            def count(m):
                return len([r for r in migs if m and r["pid"] == int(m.group(1)) and r["cause"] == "affinity"])
            nt, nc = count(tid), count(cpid)
            print("FIG family_thread %d/5" % nt)
            print("FIG family_child %d/7" % nc)
            outsiders = [r for r in migs if opid and int(opid.group(1)) in (r["pid"], r["tgid"])]
            return {
                "family_exit0": (c.rc("run") == 0, "migtrace exit %s" % c.rc("run")),
                "outsider_not_counted": (opid is not None and not outsiders,
                                         "outsider pid missing from its output" if not opid else
                                         "%d records of the outsider %s" % (len(outsiders), opid.group(1))),
                "thread_counted_5": (tid is not None and nt == 5, "thread %s: %d affinity migrations, expected 5" % (
                    tid.group(1) if tid else "?", nt)),
                "child_counted_7": (cpid is not None and nc == 7, "child %s: %d affinity migrations, expected 7" % (
                    cpid.group(1) if cpid else "?", nc)),
            }
        self.checks("family", names, fn, bpf=True)

    def no_idle(self, c):
        """Why the case had no idle CPU, or None: other work kept 0.5 CPU or more busy just
        before or after its run (foreign_busy.sh's readings, shipped by guest.sh).  A check
        of a move the scheduler makes only onto an idle CPU is then a skip, not a failure
        (docs/testing.md, "Regime-gated")."""
        got = []
        for f in ("foreign_before", "foreign_after"):
            try:
                got.append(float((c.text(f) or "").strip()))
            except ValueError:
                got.append(None)
        if any(g is not None and g >= 0.5 for g in got):
            return "no idle CPU: other work kept %s CPUs busy before the run and %s after it" % tuple(
                "?" if g is None else "%.2f" % g for g in got)
        return None

    def gate_idle(self, c, name, ok_count, ok_records, why):
        """A result for a check of a move onto an idle CPU: its count gated by no_idle, its
        records never (an odd record is a defect whatever the load)."""
        idle_why = None if ok_count or not ok_records else self.no_idle(c)
        if idle_why:
            print("SKIP %s %s; %s" % (name, idle_why, why))
            return None
        return (ok_count and ok_records, why)

    def balance(self, mode, names, judge):
        def fn(c):
            prob = self.run_problem(c)
            if prob:
                return {n: (False, prob) for n in names}
            d = c.json("run.json")
            bc = d["stats"]["by_cause"]
            print("FIG balance_%s %s" % (mode, " ".join("%s=%d" % (k, v) for k, v in bc.items() if v)))
            return judge(d, bc)
        self.checks("balance_" + mode, names, fn, bpf=True)

    def causes(self):
        def show(d, cause):
            return [(r["state"], r["on_rq"], r["age_ns"], r["by_comm"]) for r in d["migrations"]
                    if r["cause"] == cause][:10]

        def lb(d, bc):
            bad = [r for r in d["migrations"] if r["cause"] == "lb_pull"
                   and not (r["on_rq"] == 2 and r["state"] == "queued")]
            return {"cause_lb_pull": self.gate_idle(
                self.case("balance_lb"), "cause_lb_pull", bc["lb_pull"] >= 1, not bad,
                "lb_pull %d (want >= 1), odd: %s" % (bc["lb_pull"], show(d, "lb_pull")))}
        self.balance("lb", ["cause_lb_pull"], lb)

        def active(d, bc):
            bad = [r for r in d["migrations"] if r["cause"] == "active_balance"
                   and not (r["by_comm"].startswith("migration/") and r["age_ns"] == 0
                            and r["state"] == "running")]
            if self.rt and not bc["active_balance"]:
                print("FIG balance_active none on PREEMPT_RT (its balancer pulled instead)")
            return {"cause_active_balance": self.gate_idle(
                self.case("balance_active"), "cause_active_balance",
                bc["active_balance"] >= 1 or self.rt, not bad,
                "active_balance %d (want >= 1), records: %s" % (
                    bc["active_balance"], show(d, "active_balance")))}
        self.balance("active", ["cause_active_balance"], active)

        def fork(d, bc):
            badf = [r for r in d["migrations"] if r["cause"] == "fork"
                    and not (r["state"] == "new" and r["age_ns"] == 0)]
            # the workload's own execve after release is balanced by sched_exec (the stopper)
            bade = [r for r in d["migrations"] if r["cause"] == "exec"
                    and not (r["by_comm"].startswith("migration/") and r["state"] == "running")]
            return {
                "cause_fork": self.gate_idle(
                    self.case("balance_fork"), "cause_fork", bc["fork"] >= 1, not badf,
                    "fork %d (want >= 1), records: %s" % (bc["fork"], show(d, "fork"))),
                "cause_exec": (not bade, "exec records not by the stopper: %s" % show(d, "exec")),
            }
        self.balance("fork", ["cause_fork", "cause_exec"], fork)

        def exec_(d, bc):
            # balance exec: children of a forker beside a spinner exec /bin/true, and
            # sched_exec sends some to the other CPU by the stopper (the host's 6.18: 2 in
            # 1 s when quiet).  Their count is reported per kernel, not yet required: on a
            # host busy with other work none came in 3 attempts (nor any active balance or
            # wake-up placement), and no guest has run this case yet.
            bade = [r for r in d["migrations"] if r["cause"] == "exec"
                    and not (r["by_comm"].startswith("migration/") and r["state"] == "running")]
            if not bc["exec"]:
                print("FIG balance_exec no exec balance (reported, not required)")
            return {"cause_exec_balance": (not bade, "exec records not by the stopper: %s" % (
                show(d, "exec")))}
        self.balance("exec", ["cause_exec_balance"], exec_)

    def completeness(self):
        """Every run proves its completeness: the kernel's own count (se.nr_migrations) of
        the traced tasks' migrations equals what migtrace recorded, once moves without a
        sched_migrate_task event are counted (cause unseen)."""
        for case in ("selfmig_sleeping", "selfmig_running", "family", "balance_lb",
                     "balance_active", "balance_fork", "balance_exec", "wakeup"):
            name = "completeness_" + case

            def fn(c, name=name):
                prob = self.run_problem(c)
                if prob:
                    return {name: (False, prob)}
                k = c.json("run.json")["stats"]["completeness"]
                print("FIG %s kernel %d seen %d unseen %d difference %d" % (
                    name, k["kernel_counted"], k["seen"], k["unseen_found"], k["difference"]))
                # fork placements are not in se.nr_migrations: a fork run may count none, and
                # so may an exec run none of whose children was exec-balanced; a PREEMPT_RT
                # balancer may leave the active-balance case without any move
                may_be_empty = c.name in ("balance_fork", "balance_exec") or (
                    self.rt and c.name == "balance_active")
                # the balancer's and the wake-ups' moves need an idle CPU: a count of none
                # beside a CPU-bound process is a skip (gate_idle); the difference never is
                return {name: self.gate_idle(
                    c, name, k["kernel_counted"] > 0 or may_be_empty, k["difference"] == 0,
                    "kernel counted %d, migtrace saw %d (%d unseen): difference %d" % (
                        k["kernel_counted"], k["seen"], k["unseen_found"], k["difference"]))}
            self.checks(case, [name], fn, bpf=True)

    def wakeup(self):
        names = ["cause_wakeup", "wakeup_latency_per_sleep"]

        def fn(c):
            prob = self.run_problem(c)
            if prob:
                return {n: (False, prob) for n in names}
            d = c.json("run.json")
            bc = d["stats"]["by_cause"]
            print("FIG wakeup %d wakeup placements of %d migrations%s" % (
                bc["wakeup"], d["stats"]["migrations"],
                " (PREEMPT_RT: reported, not required)" if self.rt and bc["wakeup"] < 10 else ""))
            bad = [(r["on_rq"], r["state"]) for r in d["migrations"] if r["cause"] == "wakeup"
                   and not (r["on_rq"] == 0 and r["state"] == "waking")]
            # 30_run.sh's check that wakeup ages match the 700 us sleep is timing: dropped.
            # One wake-up latency sample per sleep of the workload (each of its run/sleep
            # cycles ends in one), plus a few: where this kernel's enqueue stamp is read
            # (meta.wakeup_latency_from), a kernel that does not stamp some enqueues (a
            # delayed dequeue's, say) would show here as samples missing.
            # the sleeps that blocked (the workload's voluntary switches): under TCG a
            # sleep's timer can fire before its thread is off the CPU, and wake nobody
            m = re.search(r"^wakeup: .* (\d+) run/sleep cycles.*; (\d+) of the sleeps blocked",
                          (c.text("run.out") or "") + (c.text("run.err") or ""), re.M)
            cycles = int(m.group(2)) if m else None
            samples = sum(d["histograms"]["wakeup_latency"])
            # a sample is taken at the switch-in after the wake-up: one that fired no event
            # (the host traces nothing while its init runs: 27 in a run that had 16 samples
            # fewer than sleeps) gives none, and is counted (switch_ins_untraced)
            untraced = d["stats"]["completeness"].get("switch_ins_untraced", 0)
            src = d["meta"].get("wakeup_latency_from")
            print("FIG wakeup_latency %d samples (%s) for %s sleeps that blocked" % (samples, src, cycles))
            return {
                "wakeup_latency_per_sleep": (
                    cycles is not None and cycles - 6 - untraced <= samples <= cycles + 30,
                    "%d wake-up latency samples (from %s) for %s sleeps that blocked (want them, "
                    "-6 .. +30, and less the %d switch-ins that fired no event)" % (
                        samples, src, cycles, untraced)),
                # PREEMPT_RT placed 24, 14 and then 3 (in 3 tries of 3 s, 7 migrations in
                # all) under TCG in three runs: there the count is reported, not required,
                # as its active balances are; the records are checked everywhere.  7.3-rc
                # placed 2 in the last of 3 tries (19 migrations, a quiet guest) where it had
                # placed 24 the run before: as for the balancer's causes, at least one is
                # required (guest.sh still tries for 10, to check more records)
                "cause_wakeup": self.gate_idle(
                    c, "cause_wakeup", bc["wakeup"] >= 1 or self.rt, not bad,
                    "wakeup placements %d (want >= 1), odd: %s" % (bc["wakeup"], bad[:10])),
            }
        self.checks("wakeup", names, fn, bpf=True)

    # ---- the ftrace backend ----------------------------------------------------------------

    # The workload cases, which guest.sh runs with both backends at once.
    BOTH = ("selfmig_sleeping", "selfmig_running", "family", "balance_lb", "balance_active",
            "balance_fork", "balance_exec", "wakeup")

    def cross_counts(self, case):
        """(BPF, ftrace, kernel) of the ftrace case's run by both backends at once: each
        backend's migrations less fork placements (the kernel's se.nr_migrations leaves them
        out; BPF's include the moves it found unseen), and the BPF run's kernel count; None
        where a run left no record."""
        c = self.case(case)
        b = c.json("bpf.json") if c.complete else None
        f = c.json("run.json") if c.complete else None

        def nofork(d):
            return d["stats"]["migrations"] - d["stats"]["by_cause"].get("fork", 0) if d else None
        k = b["stats"]["completeness"]["kernel_counted"] if b else None
        return nofork(b), nofork(f), k

    def backends(self):
        """Both backends' counts per case, for the matrix's table: FIG backends CASE BPF
        FTRACE KERNEL (cross_counts; '-' where a run left no record)."""
        for case in self.BOTH:
            print("FIG backends %s %s" % (case, " ".join(
                "-" if v is None else str(v) for v in self.cross_counts(case))))

    def ftrace_run_loads(self):
        def fn(c):
            rc, d = c.rc("run"), c.json("run.json")
            err = (c.text("run.err") or "").strip().splitlines()
            be = backend_of(d, (c.text("run.out") or "") + (c.text("run.err") or ""))
            got = {"ftrace_run_loads": (rc == 0 and d is not None and be in ("ftrace", None),
                                        "migtrace run --backend ftrace -- true: exit %s, backend %s: %s"
                                        % (rc, be, err[-1] if err else "no stderr"))}
            left = [l for l in (c.text("instances") or "").split() if "migtrace" in l or l.startswith("mt")]
            if self.host:
                # the host's tracefs is shared with whatever else runs there
                print("SKIP ftrace_instance_removed the host's tracefs is shared: instances "
                      "named like migtrace's after the run: %s" % (left or "none"))
                got["ftrace_instance_removed"] = None
            else:
                got["ftrace_instance_removed"] = (not left, "instances left after the run: %s" % left)
            return got
        self.checks("ftrace_loads", ["ftrace_run_loads", "ftrace_instance_removed"], fn)

    def ftrace_pid_moves(self, c, mode):
        """(the pid's migrations as selfmig, the last 23 of them, pid) of an ftrace selfmig
        case; balancer moves before selfmig pins itself (one seen on -rt, two on 6.1 once)
        are counted, not among the 23: up to 3, as ftrace_fallback_auto allows.  The pid is traced from before its exec (sh waits, then execs selfmig): the
        sh's own moves (its wake-up placement, the exec balance) are real, not selfmig's."""
        d, pid, why = self.selfmig_run(c, mode, "work.out")
        if why:
            return None, None, why
        allm = sorted((r for r in d["migrations"] if r["pid"] == pid and r["comm"] == "selfmig"),
                      key=lambda r: r["ts_ns"])
        return allm, allm[-23:], None

    def ftrace_selfmig(self):
        names = ["ftrace_selfmig_sleeping_23", "ftrace_selfmig_sleeping_src_dst"]

        def sleeping(c):
            allm, migs, why = self.ftrace_pid_moves(c, "sleeping")
            if why:
                return {n: (False, why) for n in names}
            pairs = [(int(mv.split()[2]), int(mv.split()[3])) for mv in
                     (c.text("work.out") or "").splitlines() if mv.startswith("move ")]
            got = [(r["src_cpu"], r["dst_cpu"]) for r in migs]
            print("FIG ftrace_selfmig_sleeping %d/23 (causes %s; attempts %s)" % (
                len(allm), causes_of(allm), (c.text("attempts") or "?").strip()))
            return {
                "ftrace_selfmig_sleeping_23": (23 <= len(allm) <= 26, "%d migrations of the pid, expected 23"
                                               " (and up to 3 balancer moves before pinning): %s" % (
                                                   len(allm), [(r["cause"], r["src_cpu"], r["dst_cpu"]) for r in allm])),
                "ftrace_selfmig_sleeping_src_dst": (len(pairs) == 23 and pairs == got,
                                                    "selfmig moved %s, migtrace saw %s" % (pairs, got)),
            }
        self.checks("selfmig_sleeping", names, sleeping)
        rnames = ["ftrace_selfmig_running_23", "ftrace_selfmig_running_alternate"]

        def running(c):
            allm, migs, why = self.ftrace_pid_moves(c, "running")
            if why:
                return {n: (False, why) for n in rnames}
            print("FIG ftrace_selfmig_running %d/23 (causes %s)" % (len(allm), causes_of(allm)))
            alt = all(a["dst_cpu"] == b["src_cpu"] and a["src_cpu"] != a["dst_cpu"]
                      for a, b in zip(migs, migs[1:]))
            return {
                "ftrace_selfmig_running_23": (23 <= len(allm) <= 26, "%d migrations of the pid, expected 23"
                                              " (and up to 3 balancer moves before pinning): %s" % (
                    len(allm), [(r["cause"], r["src_cpu"], r["dst_cpu"]) for r in allm])),
                "ftrace_selfmig_running_alternate": (migs and alt, "CPU pairs do not alternate: %s" % (
                    [(r["src_cpu"], r["dst_cpu"]) for r in migs])),
            }
        self.checks("selfmig_running", rnames, running)

    def ftrace_family(self):
        names = ["ftrace_outsider_not_counted", "ftrace_thread_counted_5", "ftrace_child_counted_7"]

        def fn(c):
            prob = self.run_problem(c)
            if prob:
                return {n: (False, prob) for n in names}
            out, other = c.text("work.out") or "", c.text("other.out") or ""
            migs = c.json("run.json")["migrations"]
            tid = re.search(r"^thread (\d+) ", out, re.M)
            cpid = re.search(r"^child (\d+) ", out, re.M)
            opid = re.search(r"^selfmig running pid (\d+) ", other, re.M)

            bmigs = (c.json("bpf.json") or {}).get("migrations", [])

            def count(m, recs):
                # any cause but the fork placement: the ftrace backend does not tell
                # affinity apart, and a balancer may move the thread or child too
                return len([r for r in recs if m and r["pid"] == int(m.group(1))
                            and r["cause"] != "fork"])

            def affinity(m):
                return len([r for r in bmigs if m and r["pid"] == int(m.group(1))
                            and r["cause"] == "affinity"])
            nt, nc = count(tid, migs), count(cpid, migs)
            bt, bc = count(tid, bmigs), count(cpid, bmigs)
            print("FIG ftrace_family thread %d (BPF %d, %d/5 affinity) child %d (BPF %d, %d/7 affinity)"
                  % (nt, bt, affinity(tid), nc, bc, affinity(cpid)))
            outsiders = [r for r in migs if opid and int(opid.group(1)) in (r["pid"], r["tgid"])]
            return {
                "ftrace_outsider_not_counted": (opid is not None and not outsiders,
                                                "outsider pid missing from its output" if not opid else
                                                "%d records of the outsider %s" % (len(outsiders), opid.group(1))),
                # its 5 (7) affinity moves as BPF tells them, and as many moves as BPF saw
                "ftrace_thread_counted_5": (nt == bt and affinity(tid) == 5,
                                            "thread: ftrace %d migrations, BPF %d (%d affinity, "
                                            "expected 5)" % (nt, bt, affinity(tid))),
                "ftrace_child_counted_7": (nc == bc and affinity(cpid) == 7,
                                           "child: ftrace %d migrations, BPF %d (%d affinity, "
                                           "expected 7)" % (nc, bc, affinity(cpid))),
            }
        self.checks("family", names, fn)

    def ftrace_cross(self):
        """Each workload case traced by both backends at once: the ftrace run sees the
        migrations the BPF run sees, move by move (the same task and CPUs, in the same order,
        ages within TOL_NS; stamps more than TOL_NS apart are said), and as many as the kernel counted
        (se.nr_migrations, read by the BPF run), give or take the moves BPF found at a
        switch-in without seeing their event (unseen): a move the kernel made without a
        sched_migrate_task event ftrace cannot see either, but one whose event BPF's program
        missed, it can."""
        tol = self.tol_ns
        stall_ns = max(STALL_NS, 10 * tol)
        for case in self.BOTH:
            names = ["ftrace_same_as_bpf_" + case, "ftrace_kernel_count_" + case]

            def fn(c, case=case, names=names):
                prob = self.run_problem(c) or self.run_problem(c, "bpf", "bpf.json")
                if prob:
                    return {n: (False, prob) for n in names}
                a, b = c.json("bpf.json"), c.json("run.json")
                # the two runs stop apart: a thread dying after its process left /proc (a
                # spinner killed by exit_group, preempted in do_exit) can be pulled once
                # one has stopped (629 pulled 1->0 last, seen by BPF alone, once on 7.3-rc);
                # a move stamped past the other run's traced_until_ns is not judged
                a_until, b_until = until_of(a), until_of(b)
                past_b = [m for m in a["migrations"] if m["cause"] != "fork" and m["ts_ns"] > b_until]
                past_a = [m for m in b["migrations"] if m["cause"] != "fork" and m["ts_ns"] > a_until]
                ma = [m for m in a["migrations"] if m["cause"] not in ("fork", "unseen")
                      and m["ts_ns"] <= b_until]
                mb = [m for m in b["migrations"] if m["cause"] != "fork" and m["ts_ns"] <= a_until]
                used, worst, unmatched, late, stalled, aged = set(), 0, [], [], [], []
                # Paired in order, task by task (align(): the same CPUs, stamped within
                # stall_ns): both backends trace the same run at once, so a task's moves come
                # in the same sequence in both.  Pairing each move with the nearest stamp
                # failed once one of selfmig's moves was stamped 45 ms apart (6.1 under TCG,
                # the fuzzers beside it): it took its neighbour's partner, and ten more
                # pairs after it were 16-35 ms apart in a chain.
                for pid in sorted({m["pid"] for m in ma} | {n["pid"] for n in mb}):
                    ia = [i for i, m in enumerate(ma) if m["pid"] == pid]
                    ib = [j for j, n in enumerate(mb) if n["pid"] == pid]
                    ia.sort(key=lambda i: ma[i]["ts_ns"])
                    ib.sort(key=lambda j: mb[j]["ts_ns"])
                    paired = set()
                    for ka, kb in align(ma, ia, mb, ib, stall_ns):
                        m, j = ma[ia[ka]], ib[kb]
                        n = mb[j]
                        d = abs(n["ts_ns"] - m["ts_ns"])
                        used.add(j)
                        paired.add(ka)
                        # ftrace's replay missed the move's event but found it where the
                        # task next ran (unseen, as BPF counts its own misses): the count
                        # holds, the event is lost; a few are allowed and said (FIG below)
                        if n["cause"] == "unseen":
                            late.append((m["pid"], m["cause"], m["src_cpu"], m["dst_cpu"]))
                            continue
                        # the same move stamped apart: a vCPU stopped between the
                        # tracepoint's two callbacks, BPF's and ftrace's (61 and 82 us for 2
                        # of 303 lb_pulls on an EPYC host once; 45 ms for one of selfmig's
                        # moves on 6.1 under TCG beside the fuzzers): said, the ages judged
                        if d > tol:
                            stalled.append((m["pid"], m["cause"], d // 1000))
                        if m.get("age_ns") and n.get("age_ns") is not None and \
                                m["state"] != "running":
                            # an age stretched past the tolerance by the same stall (a run
                            # beside stress-ng --cpu 1: one of selfmig's 23 ages 191 us
                            # apart) is allowed as a few; beyond stall_ns it is a defect
                            da = abs(n["age_ns"] - m["age_ns"])
                            if tol < da <= stall_ns:
                                aged.append(da // 1000)
                            else:
                                worst = max(worst, da)
                    for k, i in enumerate(ia):
                        if k not in paired:
                            m = ma[i]
                            unmatched.append((m["pid"], m["cause"], m["src_cpu"], m["dst_cpu"]))
                # a move BPF found only at the switch-in (unseen: its program did not run at
                # the event, a nested BPF program's recursion guard say) may be one ftrace saw
                unseen_moves = [(m["pid"], m["src_cpu"], m["dst_cpu"]) for m in a["migrations"]
                                if m["cause"] == "unseen" and m["ts_ns"] <= b_until]
                extra = []
                for j, n in enumerate(mb):
                    if j in used:
                        continue
                    key = (n["pid"], n["src_cpu"], n["dst_cpu"])
                    if key in unseen_moves:
                        unseen_moves.remove(key)
                    else:
                        extra.append((n["pid"], n["cause"], n["src_cpu"], n["dst_cpu"]))
                bpf, ft, kernel = self.cross_counts(case)
                unseen = a["stats"]["by_cause"].get("unseen", 0)
                past = "%d BPF moves past the ftrace run's end %s, %d ftrace moves past BPF's %s" % (
                    len(past_b), [(m["pid"], m["cause"], m["src_cpu"], m["dst_cpu"]) for m in past_b][:5],
                    len(past_a), [(m["pid"], m["cause"], m["src_cpu"], m["dst_cpu"]) for m in past_a][:5])
                print("FIG ftrace_cross %s BPF %d, ftrace %d, kernel %d (BPF unseen %d; ftrace found %d "
                      "late, unseen; %d stamped more than the tolerance apart, in us: %s); ages within %d ns "
                      "but %d stalled, in us: %s; %s" % (
                          case, bpf, ft, kernel, unseen, len(late), len(stalled), stalled[:5], worst,
                          len(aged), aged[:5], past))
                few = max(1, len(ma) // 100)
                return {
                    names[0]: (not unmatched and not extra and worst <= tol and
                               len(late) <= few and len(aged) <= few,
                               "%d BPF moves: %d without an ftrace move within %d ns or with other CPUs %s; "
                               "%d ftrace moves BPF did not see %s; %d found late, unseen %s (at most "
                               "1 %%, or 1), %d stamped apart, up to %d ns, %s; %d ages stalled so %s "
                               "(at most 1 %%, or 1); "
                               "ages differ by up to %d ns besides (tolerance %d); not judged: %s" % (
                                   len(ma), len(unmatched), tol, unmatched[:5], len(extra), extra[:5],
                                   len(late), late[:5], len(stalled), stall_ns, stalled[:5],
                                   len(aged), aged[:5], worst, tol, past)),
                    # none at all, beside a CPU-bound process: a skip, as for the same
                    # workload's BPF case (whose readings of other work's load it takes)
                    names[1]: self.gate_idle(
                        self.case(case), names[1],
                        kernel > 0 or case in ("balance_fork", "balance_exec", "balance_active"),
                        kernel - unseen - len(past_b) <= ft <= kernel + len(past_a),
                        "ftrace saw %d migrations (less fork placements), the kernel counted %d, "
                        "BPF found %d unseen (want kernel - unseen - BPF's past the ftrace run's "
                        "end <= ftrace <= kernel + ftrace's past BPF's end): %s" % (
                            ft, kernel, unseen, past)),
                }
            self.checks(case, names, fn)

    def ftrace_wakeup(self):
        """The wakeup case's causes by both backends, as a figure (ftrace_causes_agree
        judges them move by move)."""
        c = self.case("wakeup")
        d, a = (c.json("run.json"), c.json("bpf.json")) if c.complete else (None, None)
        if d is None or a is None:
            return
        print("FIG ftrace_wakeup ftrace: %s; BPF: %s (the same run)" % tuple(
            " ".join("%s=%d" % kv for kv in x["stats"]["by_cause"].items() if kv[1]) or "none"
            for x in (d, a)))

    # What the ftrace backend may call a move whose cause BPF tells (docs/design.md, "The
    # ftrace backend": affinity changes are never told apart, the stopper's moves are active*
    # unless an exec event follows).
    CAUSE_OK = {"affinity": ("affinity", "wakeup", "lb_pull", "active_balance"),
                "exec": ("exec", "active_balance")}

    def ftrace_causes(self):
        """One check over every case run by both at once: each move both saw has the cause
        BPF gave it, or one CAUSE_OK allows."""
        tol = self.tol_ns
        n, odd = 0, []
        for case in self.BOTH:
            c = self.case(case)
            a, b = (c.json("bpf.json"), c.json("run.json")) if c.complete else (None, None)
            if a is None or b is None:
                continue
            mb = [m for m in b["migrations"] if m["cause"] != "fork"]
            used = set()
            for m in a["migrations"]:
                if m["cause"] in ("fork", "unseen"):
                    continue
                near = [j for j, x in enumerate(mb) if j not in used and x["pid"] == m["pid"]
                        and (x["src_cpu"], x["dst_cpu"]) == (m["src_cpu"], m["dst_cpu"])
                        and abs(x["ts_ns"] - m["ts_ns"]) <= tol]
                if not near:
                    continue
                j = min(near, key=lambda j: abs(mb[j]["ts_ns"] - m["ts_ns"]))
                used.add(j)
                n += 1
                if mb[j]["cause"] not in self.CAUSE_OK.get(m["cause"], (m["cause"],)):
                    odd.append((case, m["pid"], m["comm"], m["state"], m["by_comm"], m["cause"],
                                mb[j]["cause"]))
        kinds = {}
        for o in odd:
            kinds["%s->%s" % (o[5], o[6])] = kinds.get("%s->%s" % (o[5], o[6]), 0) + 1
        print("FIG ftrace_causes %d moves seen by both, %d with another cause (%s)" % (
            n, len(odd), " ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none"))
        self.result("ftrace_causes_agree", n > 0 and not odd,
                    "%d of %d moves seen by both have a cause ftrace should have told as BPF "
                    "did (case, pid, comm, state, by, BPF, ftrace): %s" % (len(odd), n, odd[:6])
                    if n else "no move seen by both (see the workload cases)")

    def ftrace_ages(self):
        """Ages sane in every ftrace run: known (not null) for all but fork placements, never
        negative, never longer than the run's span of records; the median beside the BPF
        run's of the same workload (TCG: the timing itself is not judged)."""
        bad, seen, unknown = [], 0, 0
        for case in self.BOTH:
            c = self.case(case)
            d = c.json("run.json") if c.complete else None
            if d is None:
                continue
            migs = d["migrations"]
            if not migs:
                continue
            span = max(r["ts_ns"] for r in migs) - min(r["ts_ns"] for r in migs) + 5 * 10**9
            ages = []
            for r in migs:
                seen += 1
                a = r.get("age_ns")
                if a is None:
                    if r["cause"] != "fork":
                        unknown += 1
                    continue
                ages.append(a)
                if a < 0 or a > span:
                    bad.append((case, r["pid"], r["cause"], a))
            b = c.json("bpf.json")	# the same workload run, traced by BPF at once
            bages = sorted(r["age_ns"] for r in (b or {}).get("migrations", []) if r.get("age_ns") is not None)
            print("FIG ftrace_age %s median %s µs (BPF, the same run: %s µs)" % (
                case, median_us(sorted(ages)), median_us(bages)))
        ok = seen > 0 and not bad and unknown <= seen // 10
        self.result("ftrace_ages_sane", ok, "%d records: %d ages out of [0, the run's span]: %s; %d unknown "
                    "(want <= 10 %%)" % (seen, len(bad), bad[:5], unknown) if seen else
                    "no ftrace run left records (see the workload cases)")

    def ftrace_fallback(self):
        names = ["ftrace_fallback_caps_dropped", "ftrace_fallback_bpf_refused", "ftrace_fallback_auto",
                 "ftrace_fallback_doctor"]

        def fn(c):
            caps = c.text("caps.out") or ""
            m = re.search(r"^CapEff:\s*([0-9a-f]+)", caps, re.M)
            eff = int(m.group(1), 16) if m else None
            dropped = eff is not None and not eff & ((1 << 21) | (1 << 38) | (1 << 39))
            berr = (c.text("bpf.err") or "").strip().splitlines()
            d = c.json("run.json")
            text = (c.text("run.out") or "") + (c.text("run.err") or "")
            why = [l for l in text.splitlines() if "ftrace" in l.lower() and "bpf" in l.lower()]
            be = backend_of(d, text)
            pid = re.search(r"^selfmig running pid (\d+) ", text, re.M)
            # selfmig's 23 moves are the pid's last 23, in its printed order; before its
            # first pin the scheduler may place it (fork, exec, a balance while migtrace's
            # reader runs beside it: 2 of them on 6.1-rt once), at most 3
            recs = sorted((r for r in (d or {}).get("migrations", [])
                           if pid and r["pid"] == int(pid.group(1))), key=lambda r: r["ts_ns"])
            printed = [(int(a), int(b)) for a, b in
                       re.findall(r"^move \d+ (\d+) (\d+) ", text, re.M)]
            n = len(recs)
            tail_ok = (len(printed) == 23 and n >= 23 and n - 23 <= 3 and
                       [(r["src_cpu"], r["dst_cpu"]) for r in recs[-23:]] == printed)
            if why:
                print("FIG ftrace_fallback %s" % one_line(why[0], 200))
            dout = (c.text("doctor.out") or "") + (c.text("doctor.err") or "")
            dlines = [l for l in dout.splitlines() if "ftrace" in l.lower() or "bpf" in l.lower()]
            return {
                "ftrace_fallback_caps_dropped": (dropped, "setpriv left CapEff %s (want no sys_admin, perfmon, "
                                                 "bpf): %s" % (m.group(1) if m else "?", one_line(caps))),
                "ftrace_fallback_bpf_refused": (c.rc("bpf") not in (0, None) and len(berr) >= 1,
                                                "run --backend bpf without the capabilities: exit %s: %s" % (
                                                    c.rc("bpf"), berr[-1] if berr else "no stderr")),
                "ftrace_fallback_auto": (c.rc("run") == 0 and be == "ftrace" and bool(why) and tail_ok,
                                         "run --backend auto: exit %s, backend %s, %d migrations of the pid "
                                         "(want selfmig's 23 printed moves last, at most 3 before), "
                                         "why-line %s: %s" % (
                                             c.rc("run"), be, n, bool(why), one_line(text[-300:]))),
                "ftrace_fallback_doctor": (any("ftrace" in l.lower() for l in dlines) and
                                           any("bpf" in l.lower() for l in dlines),
                                           "doctor without the capabilities names no backend lines: %s" % (
                                               one_line(dout[-300:]))),
            }
        self.checks("ftrace_fallback", names, fn)

    def report_capture(self):
        names = ["capture_recorded", "capture_report_full", "capture_report_small", "capture_small_shipped"]
        if self.host:
            names.append("capture_report_data")

        def counts(c, cap):
            """capture_report_CAP: migtrace report's count of capture CAP against trace-cmd's."""
            tc = migrate_count(c.text(cap + "_migrate.out"))
            d = c.json(cap + "_report.json")
            m = re.search(r"^migrations: (\d+)", c.text(cap + "_report.out") or "", re.M)
            # a fork placement is a migration with no sched_migrate_task event (the kernel
            # sets a new task's CPU without set_task_cpu()), and so is one found unseen:
            # the events are the migrations less those
            bc = d["stats"]["by_cause"] if d else {}
            total = d["stats"]["migrations"] if d else (int(m.group(1)) if m else None)
            got = total - bc.get("fork", 0) - bc.get("unseen", 0) if d else None
            rerr = (c.text(cap + "_report.err") or "").strip().splitlines()
            print("FIG capture %s %s bytes, migtrace report %s, trace-cmd report %s" % (
                cap, (c.text(cap + "_bytes") or "?").strip(), got, tc))
            return (c.rc(cap + "_report") == 0 and got is not None and got == tc,
                    "migtrace report of the %s capture: exit %s, %s migrations (%s less %s fork "
                    "placements, %s unseen); trace-cmd report: %s sched_migrate_task events with "
                    "orig_cpu != dest_cpu: %s" % (
                        cap, c.rc(cap + "_report"), got, total, bc.get("fork"), bc.get("unseen"),
                        tc, rerr[-1] if rerr else ""))

        def fn(c):
            r = {}
            if self.host:
                # tests/data/trace-cmd-6.12.dat, read on the host whatever its tracefs allows
                r["capture_report_data"] = counts(c, "data")
            err = (c.text("full_record.err") or "").strip()
            if c.rc("full_record") != 0 and self.host and "not permitted" in err:
                # seen on this project's host: its tracefs refuses set_ftrace_filter and
                # /proc/sys/kernel/ftrace_enabled even to root, which trace-cmd record writes
                for n in names[:4]:
                    print("SKIP %s trace-cmd record cannot run on this host: %s" % (n, one_line(err, 200)))
                    r[n] = None
                return r
            r["capture_recorded"] = (c.rc("full_record") == 0 and c.text("full_bytes") is not None,
                                     "trace-cmd record -e sched: exit %s: %s" % (
                                         c.rc("full_record"), one_line(err[-300:])))
            for cap in ("full", "small"):
                r["capture_report_" + cap] = counts(c, cap)
            size = os.path.getsize(os.path.join(c.dir, "capture.dat")) if os.path.exists(
                os.path.join(c.dir, "capture.dat")) else None
            r["capture_small_shipped"] = (size is not None and size < 300 * 1024,
                                          "the small capture: %s bytes (want < 300 KiB); bind mount: %s" % (
                                              size, one_line(c.text("small_mount.err") or "ok")))
            return r
        self.checks("report_capture", names, fn)

    def tunable_raw(self, case="tunable", name="orig"):
        """The value a case read with cat, or None (and why) when it could not."""
        c = self.case(case)
        t = (c.text(name) or "").strip()
        if re.fullmatch(r"\d+", t):
            return int(t), ""
        return None, (c.text(name + ".err") or "not read").strip()

    def cache_aware(self):
        """7.2's cache-aware scheduling in a boot with two LLCs: the moves' preferred LLCs with
        llc_balancing enabled, none with it disabled (or, if the kernel's heuristic did not
        engage, the run saying why from the knobs)."""
        names = ["cache_aware_two_llcs", "cache_aware_exact", "cache_aware_enabled",
                 "cache_aware_disabled", "cache_aware_sweep", "cache_aware_sweep_restored"]

        def fn(c):
            if c.text("absent"):
                return {n: (False, "the kernel has no llc_balancing knobs: %s" % c.text("absent").strip())
                        for n in names}
            llcs = set((c.text("llcs") or "").split())
            out = {en: (c.text("run%s.out" % en) or "") + (c.text("run%s.err" % en) or "") for en in "10"}
            knob = {en: (c.text("knob%s" % en) or "").strip() for en in "10"}
            ids = re.findall(r"the kernel's LLCs: (\S+)", out["1"])
            exact = [re.search(r"difference (-?\d+)", out[en]) for en in "10"]
            got = {}
            got["cache_aware_two_llcs"] = (
                len(llcs) == 2 and bool(ids) and ids[0].count(":") == 2,
                "the guest's L3s %s, the kernel's LLC ids %s: two of each wanted"
                % (sorted(llcs), ids[0] if ids else "not printed"))
            got["cache_aware_exact"] = (
                all(m and m.group(1) == "0" for m in exact),
                "completeness (kernel - migtrace) with enabled 1, 0: %s" %
                ", ".join(m.group(1) if m else "no line (exit %s)" % c.rc("run%s" % en)
                          for m, en in zip(exact, "10")))
            m = re.search(r"(\d+) of (\d+) moves were of tasks with a preferred LLC: (\d+) within it, "
                          r"(\d+) into it, (\d+) out of it", out["1"])
            none1 = re.search(r"none of the (\d+) moves was of a task with a preferred LLC", out["1"])
            why1 = re.search(r"why, as far as the knobs tell: (.*)", out["1"])
            if m:
                print("FIG cache_aware enabled: %s of %s moves with a preferred LLC, %s within, "
                      "%s into, %s out of it" % m.groups())
                # the kernel's heuristic engaged: some moves were of tasks it gave a
                # preference (how many, and where they went, is the kernel's: under a busy
                # host 4 of 48 once, all between the other LLC's CPUs; 1773 of 1776 within
                # the preferred LLC on a quiet one), and the report says where each went
                per = re.search(r"per preferred LLC \(the kernel's id\):\n +LLC \d+ \(CPUs [0-9,-]+\)",
                                out["1"])
                got["cache_aware_enabled"] = (
                    knob["1"] == "1" and int(m.group(1)) > 0 and per is not None and
                    "per task (" in out["1"],
                    "knob %s; %s; per LLC and per task %s" % (
                        knob["1"], m.group(0), "shown" if per else "not shown"))
            else:
                # the heuristic did not engage: the run must say why, and not "disabled"
                got["cache_aware_enabled"] = (
                    knob["1"] == "1" and bool(none1) and bool(why1) and "disabled" not in why1.group(1),
                    "knob %s; the run says neither moves with a preferred LLC nor why none: %s"
                    % (knob["1"], one_line(out["1"][-400:])))
                if none1 and why1:
                    print("FIG cache_aware enabled: none of %s moves had a preference: %s"
                          % (none1.group(1), why1.group(1)))
            none0 = re.search(r"none of the (\d+) moves was of a task with a preferred LLC", out["0"])
            got["cache_aware_disabled"] = (
                knob["0"] == "0" and bool(none0) and
                "llc_balancing is disabled (enabled 0)" in out["0"],
                "knob %s; %s" % (knob["0"], one_line(out["0"][-400:])))
            if none0:
                print("FIG cache_aware disabled: none of %s moves had a preference" % none0.group(1))
            # sweep --knob: both values run, recorded in the knob's unit, the knob put back
            sw = c.json("sweep.json") or {}
            tun = sw.get("tunable") or {}
            runs = sw.get("runs") or []
            got["cache_aware_sweep"] = (
                c.rc("sweep") == 0 and tun.get("knob") == "llc_balancing/enabled" and
                sorted(r.get("value") for r in runs) == [0, 1] and
                all(r.get("value_ns") is None for r in runs),
                "sweep exit %s, knob %s, runs %s: %s" % (
                    c.rc("sweep"), tun.get("knob"), [(r.get("value"), r.get("value_ns")) for r in runs],
                    one_line((c.text("sweep.err") or "")[-300:])))
            orig, after = (c.text("knob_orig") or "").strip(), (c.text("knob_after_sweep") or "").strip()
            got["cache_aware_sweep_restored"] = (
                orig != "" and orig == after and
                re.search(r"restored llc_balancing/enabled to", c.text("sweep.err") or "") is not None,
                "llc_balancing/enabled %r before the sweep, %r after" % (orig, after))
            if runs:
                print("FIG cache_aware sweep: %s" % ", ".join(
                    "enabled %s: %s migrations" % (r.get("value"), sum((r.get("migrations") or {}).values()))
                    for r in runs))
            return got
        self.checks("cache_aware", names, fn)

    def validate(self):
        names = ["validate_exit0", "validate_verdict", "validate_kernel_value"]
        raw, raw_err = self.tunable_raw("validate", "tunable")

        def fn(c):
            out, rc = c.text("validate.out") or "", c.rc("validate")
            err = c.text("validate.err") or ""
            if rc != 0 and "loading the BPF programs failed" in err + out and self.load_failure:
                why = "validate exit %s: it cannot load the tracer: %s" % (rc, self.load_pointer)
            else:
                why = "validate exit %s: %s" % (rc, (err.strip().splitlines() or ["no stderr"])[-1])
            kv = re.search(r"^  kernel's value:\s+(\S+ \S+)\s+\((.*)\)$", out, re.M)
            has = re.search(r"^verdict$", out, re.M) and re.search(r"^  => \S", out, re.M)
            if kv:
                print("FIG validate kernel's value %s (%s)" % (kv.group(1), kv.group(2)))
            # The verdict must use the kernel's real value when it is readable.
            if not kv:
                kok, kwhy = False, "no \"kernel's value:\" line (%s)" % why
            elif raw is not None:
                kok = to_ns(kv.group(1)) == raw and kv.group(2) == "read from " + TUNABLE
                kwhy = "validate says %s (%s); %s holds %d" % (kv.group(1), kv.group(2), TUNABLE, raw)
            else:
                kok = kv.group(2).startswith("kernel default, assumed") and to_ns(kv.group(1)) == DEFAULT_COST_NS
                kwhy = "tunable not readable (%s) but validate says %s (%s)" % (raw_err, kv.group(1), kv.group(2))
            return {
                "validate_exit0": (rc == 0, why),
                "validate_verdict": (bool(has), "no verdict block with a '=>' line: " + why),
                "validate_kernel_value": (kok, kwhy),
            }
        self.checks("validate", names, fn)

    def tunable(self):
        names = ["tunable_readable", "tunable_doctor_reports", "tunable_run_header",
                 "tunable_write", "tunable_doctor_after_write", "tunable_run_header_after_write",
                 "tunable_restored"]
        raw, raw_err = self.tunable_raw()

        def doctor_says(c, prefix, value):
            out = c.text(prefix + ".out") or ""
            line = [l for l in out.splitlines() if "migration-cost tunable" in l]
            line = line[0] if line else "no migration-cost tunable line"
            if value is None:
                return "not readable" in line, line
            return re.search(r"migration-cost tunable +%s = %d ns" % (re.escape(TUNABLE), value), line) is not None, line

        def header_says(c, prefix, value):
            out = c.text(prefix + ".out") or ""
            h = re.search(r"hot means younger than (\S+ \S+) \(([^)]*)\)", out)
            d = c.json(prefix + ".json")
            if not h or d is None:
                prob = self.run_problem(c, prefix, prefix + ".json") or "no 'hot means' header"
                return False, prob
            want_ns, want_src = (value, "read from " + TUNABLE) if value is not None else \
                (DEFAULT_COST_NS, "kernel default, assumed")
            ok = (to_ns(h.group(1)) == want_ns and h.group(2).startswith(want_src)
                  and d["meta"]["hot_ns"] == want_ns)
            return ok, "header %r, run record hot_ns %s; want %d ns (%s)" % (
                h.group(0), d["meta"]["hot_ns"], want_ns, want_src)

        def fn(c):
            r = {}
            if raw is not None:
                print("FIG tunable %d ns" % raw)
            # Nothing locks debugfs in the guests (no lockdown, no debugfs= option): there
            # the tunable must be readable.  The host may lock it down; migtrace must say so.
            if self.host and raw is None:
                print("SKIP tunable_readable the host kernel does not let root read %s: %s" % (TUNABLE, raw_err))
                r["tunable_readable"] = None
            else:
                r["tunable_readable"] = (raw is not None, "%s not readable: %s" % (TUNABLE, raw_err))
            # the value as found: what the doctor and run_loads cases, run earlier with the
            # tunable as it was, printed (the case no longer runs its own copies of them)
            r["tunable_doctor_reports"] = doctor_says(self.case("doctor"), "doctor", raw)
            r["tunable_run_header"] = header_says(self.case("run_loads"), "run", raw)
            after = ["tunable_write", "tunable_doctor_after_write", "tunable_run_header_after_write",
                     "tunable_restored"]
            if raw is None:
                for n in after:
                    if self.host:
                        print("SKIP %s %s is not readable here, so not written" % (n, TUNABLE))
                        r[n] = None
                    else:
                        r[n] = (False, "%s not readable: %s" % (TUNABLE, raw_err))
                return r
            new = int((c.text("new") or "0").strip() or 0)
            aw = (c.text("after_write") or "").strip()
            r["tunable_write"] = (c.rc("write") == 0 and aw == str(new),
                                  "echo %d > %s: exit %s, %s; reads back %r" % (
                                      new, TUNABLE, c.rc("write"), (c.text("write.err") or "").strip(), aw))
            r["tunable_doctor_after_write"] = doctor_says(c, "doctor_new", new)
            r["tunable_run_header_after_write"] = header_says(c, "run_new", new)
            # read back with cat: that doctor reads the live value is doctor_new's check
            # (and the doctor case's, before the write), not measured a third time
            rs = (c.text("restored") or "").strip()
            r["tunable_restored"] = (c.rc("restore") == 0 and rs == str(raw),
                                     "restoring %d: exit %s, reads back %r" % (
                                         raw, c.rc("restore"), rs))
            return r
        self.checks("tunable", names, fn)

    def sweep(self):
        names = ["sweep_refused_or_ran", "sweep_values_read_back", "sweep_table", "sweep_run_delay",
                 "sweep_restored", "sweep_witnesses", "sweep_kill9_left_record",
                 "sweep_stale_refused", "sweep_restore_after_kill9"]

        def fn(c):
            r = {}
            writable = (c.text("writable") or "").strip() == "yes"
            err = c.text("sweep.err") or ""
            out = c.text("sweep.out") or ""
            if not writable:
                # where it cannot be written, sweep must refuse in one line and run nothing
                line = [l for l in err.splitlines() if "cannot sweep" in l]
                r["sweep_refused_or_ran"] = (c.rc("sweep") == 1 and bool(line) and
                                             "report --what-if" in (line or [""])[0],
                                             "tunable not writable (%s): sweep exit %s, %s" % (
                                                 (c.text("writable.err") or c.text("orig.err") or "").strip(),
                                                 c.rc("sweep"), one_line(err)))
                for n in names[1:]:
                    print("SKIP %s %s is not writable on this kernel: %s" % (
                        n, TUNABLE, one_line((c.text("writable.err") or c.text("orig.err") or "").strip())))
                    r[n] = None
                return r
            orig = (c.text("orig") or "").strip()
            d = c.json("sweep.json")
            r["sweep_refused_or_ran"] = (c.rc("sweep") == 0 and d is not None,
                                         "sweep exit %s: %s" % (c.rc("sweep"), one_line(err[-300:])))
            steps = re.findall(r"^migtrace sweep: repetition \d+/\d+, value .* \((\d+) ns, read back", err, re.M)
            want = [1000000, 5000000, 25000000, 5000000, 25000000, 1000000]
            r["sweep_values_read_back"] = ([int(x) for x in steps] == want,
                                           "values read back %s, want %s" % (steps, want))
            table = [l for l in out.splitlines() if re.match(r"^(1 ms|5 ms|25 ms) ", l)]
            best = [l for l in out.splitlines() if l.startswith("best: ")]
            for l in out.splitlines():
                if l.startswith(("value ", "1 ms ", "5 ms ", "25 ms ", "best: ")):
                    print("FIG sweep | %s" % l)
            r["sweep_table"] = (len(table) == 3 and bool(best) and d is not None and
                                len(d.get("runs", [])) == 6 and
                                all(x["throughput_source"] == "hackbench 1 / Time" for x in d["runs"]),
                                "table rows %d, best line %s, runs in the file %s" % (
                                    len(table), bool(best), len((d or {}).get("runs", []))))
            # the run delay beside throughput: hackbench wakes its tasks all the time, so every
            # run has wake-up latencies and runnable waits, and the table their columns
            runs = (d or {}).get("runs", [])
            delay_ok = bool(runs) and all(
                x.get("wakeup_latency_p50_us") is not None and
                x.get("runnable_wait_p99_us") is not None and
                x["runnable_wait_p99_us"] >= x["runnable_wait_p50_us"] >= 0 for x in runs)
            header = [l for l in out.splitlines() if l.startswith("value ")]
            r["sweep_run_delay"] = (delay_ok and bool(header) and "runnable p50/p99" in header[0],
                                    "runs' delays %s; header %r" % (
                                        [(x.get("wakeup_latency_p50_us"), x.get("runnable_wait_p99_us"))
                                         for x in runs], header[:1]))
            # the table as the guest printed it, for the log: its run-delay columns and T*
            lines = out.splitlines()
            at = [i for i, l in enumerate(lines) if l.startswith("value ")]
            for l in (lines[at[0]:] if at else []):
                if l.strip():
                    print("FIG sweep | %s" % l)
            after = (c.text("after") or "").strip()
            ss0, ss1 = (c.text("schedstats_orig") or "").strip(), (c.text("schedstats_after") or "").strip()
            r["sweep_restored"] = (after == orig and ss0 == ss1 and
                                   not (c.text("record_after") or "").strip(),
                                   "tunable %r -> %r, sched_schedstats %r -> %r, record left: %r" % (
                                       orig, after, ss0, ss1, (c.text("record_after") or "").strip()))
            ok = d is not None and d["schedstats"]["available"] and d["schedstats"]["proc_schedstat"] and \
                all(x["nr_failed_migrations_hot"] is not None and x["lb_hot_gained"] is not None
                    for x in d["runs"])
            if d is not None:
                for x in d["runs"]:
                    print("FIG sweep_witness %d ns: migtrace lb hot %d / judged %d; kernel "
                          "nr_failed_migrations_hot %s, nr_forced_migrations %s, lb_hot_gained %s" % (
                              x["value_ns"], x["lb_hot"], x["lb_judged"], x["nr_failed_migrations_hot"],
                              x["nr_forced_migrations"], x["lb_hot_gained"]))
            r["sweep_witnesses"] = (bool(ok), "schedstats %s" % ((d or {}).get("schedstats")))
            ak = (c.text("after_kill") or "").strip()
            r["sweep_kill9_left_record"] = (ak in ("2000000", "7000000") and
                                            "migration_cost.restore" in (c.text("record_after_kill") or ""),
                                            "after kill -9 the tunable reads %r, /run/migtrace: %r" % (
                                                ak, (c.text("record_after_kill") or "").strip()))
            serr = c.text("stale.err") or ""
            r["sweep_stale_refused"] = (c.rc("stale") == 1 and "--restore" in serr and
                                        (c.text("after_stale") or "").strip() == ak,
                                        "stale sweep exit %s: %s" % (c.rc("stale"), one_line(serr)))
            ar = (c.text("after_restore") or "").strip()
            ssr = (c.text("schedstats_after_restore") or "").strip()
            r["sweep_restore_after_kill9"] = (c.rc("restore") == 0 and ar == orig and ssr == ss0 and
                                              not (c.text("record_after_restore") or "").strip(),
                                              "--restore exit %s, tunable %r (original %r), sched_schedstats %r (original %r), "
                                              "record %r: %s" % (
                                                  c.rc("restore"), ar, orig, ssr, ss0,
                                                  (c.text("record_after_restore") or "").strip(),
                                                  one_line(c.text("restore.err") or "")))
            return r
        self.checks("sweep", names, fn)


def until_of(d):
    """A run's meta.traced_until_ns, or no end (a file without it: older migtrace)."""
    v = (d or {}).get("meta", {}).get("traced_until_ns")
    return float("inf") if v is None or v < 0 else v


def backend_of(d, text=""):
    """The backend a run used: its record's meta.backend (a name, or an object with one),
    else the run's "Backend: NAME" line in text, else None (a migtrace before the ftrace
    half)."""
    b = ((d or {}).get("meta") or {}).get("backend")
    if isinstance(b, dict):
        b = b.get("name") or b.get("used")
    m = re.search(r"^Backend: (\S+)", text or "", re.M)
    return b or (m.group(1) if m else None)


def align(ma, ia, mb, ib, within):
    """The longest pairing in order of a task's moves as BPF (ma[ia]) and ftrace (mb[ib]) saw
    them, both in time order: a pair has the same CPUs and stamps within `within` ns; of the
    longest, the one whose stamps are closest in sum.  [(index into ia, index into ib)]."""
    n, m = len(ia), len(ib)
    # best[i][j]: (pairs, -sum of stamp gaps) of ia[:i] with ib[:j]
    best = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        a = ma[ia[i - 1]]
        row, prev = best[i], best[i - 1]
        for j in range(1, m + 1):
            b = mb[ib[j - 1]]
            cand = max(prev[j], row[j - 1])
            d = abs(a["ts_ns"] - b["ts_ns"])
            if d <= within and (a["src_cpu"], a["dst_cpu"]) == (b["src_cpu"], b["dst_cpu"]):
                diag = prev[j - 1]
                cand = max(cand, (diag[0] + 1, diag[1] - d))
            row[j] = cand
    pairs, i, j = [], n, m
    while i and j:
        a, b = ma[ia[i - 1]], mb[ib[j - 1]]
        d = abs(a["ts_ns"] - b["ts_ns"])
        diag = best[i - 1][j - 1]
        if d <= within and (a["src_cpu"], a["dst_cpu"]) == (b["src_cpu"], b["dst_cpu"]) and \
                best[i][j] == (diag[0] + 1, diag[1] - d):
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif best[i][j] == best[i - 1][j]:
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


def causes_of(migs):
    n = {}
    for r in migs:
        n[r["cause"]] = n.get(r["cause"], 0) + 1
    return " ".join("%s=%d" % kv for kv in sorted(n.items())) or "none"


def median_us(ages):
    return "%.0f" % (ages[len(ages) // 2] / 1000.0) if ages else "-"


def migrate_count(text):
    """sched_migrate_task events with orig_cpu != dest_cpu in `trace-cmd report`'s text."""
    if text is None:
        return None
    n = 0
    for l in text.splitlines():
        m = re.search(r" sched_migrate_task: .*orig_cpu=(\d+) dest_cpu=(\d+)", l)
        if m and m.group(1) != m.group(2):
            n += 1
    return n


def to_ns(s):
    """'500 µs' / '2.50 ms' / '1.00 s' / '800 ns' (analysis/lib/units.c fmt_ns) -> ns."""
    m = re.fullmatch(r"([0-9.]+) (ns|µs|us|ms|s)", s.strip())
    if not m:
        return None
    return round(float(m.group(1)) * {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("channel")
    ap.add_argument("outdir")
    ap.add_argument("--host", action="store_true", help="the host's own kernel (may lock debugfs)")
    ap.add_argument("--why", default="", help="why the suite stopped early, if it did")
    ap.add_argument("--prefix", default="", help="the kernel's test-name prefix (k6.1)")
    ap.add_argument("--cache-aware", action="store_true", help="the cache_aware case ran "
                    "(a kernel with CONFIG_SCHED_CACHE, booted with two LLCs)")
    ap.add_argument("--left-out", default="", help="cases this kernel's profile does not run "
                    "(of report_capture, validate, tunable, sweep; comma-separated): not judged")
    a = ap.parse_args()
    left_out = set(x for x in a.left_out.split(",") if x)
    if left_out - {"report_capture", "validate", "tunable", "sweep"}:
        ap.error("--left-out: only report_capture, validate, tunable and sweep may be left out")
    os.makedirs(a.outdir, exist_ok=True)
    hello, cases, done = parse_channel(a.channel, a.outdir)
    if hello:
        print("FIG uname %s" % hello["uname"])
    if cases:
        # the cases' own durations: the suite may have run in more than one boot (matrix.sh
        # splits it in two), whose uptimes do not add up
        print("FIG tests_s %.1f" % sum(c["dur"] or 0 for c in cases.values()))
    for name, c in cases.items():
        if c["dur"] is not None:
            print("FIG case %s %.1f" % (name, c["dur"]))
    j = Judge(a.outdir, cases, a.why, a.host, a.prefix, hello["uname"] if hello else "")
    global TUNABLE
    TUNABLE = j.env().get("tunable") or TUNABLE
    j.doctor()
    j.run_loads()
    j.scope()
    j.selfmig_sleeping()
    j.selfmig_running()
    j.family()
    j.causes()
    j.wakeup()
    j.completeness()
    j.ftrace_run_loads()
    j.ftrace_selfmig()
    j.ftrace_family()
    j.ftrace_cross()
    j.ftrace_wakeup()
    j.ftrace_causes()
    j.ftrace_ages()
    j.ftrace_fallback()
    if "report_capture" not in left_out:
        j.report_capture()
    j.backends()
    for name in ("validate", "tunable", "sweep"):
        if name not in left_out:
            getattr(j, name)()
    if a.cache_aware:
        j.cache_aware()
    if left_out:
        print("FIG left_out %s" % ",".join(sorted(left_out)))
    if done is None:
        print("NOTE the suite did not finish: %s" % (a.why or "no MT-DONE on the channel"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
