#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: what migtrace costs, beside perf sched, bpftrace and no tracing.

Four passes, each interleaved, the order of the configurations rotated every repetition:

  1. throughput: every configuration (migtrace with --backend bpf and --backend ftrace, perf
     sched record, bpftrace, ...) runs every workload --reps times with bpf_stats off
     (bpf_stats adds two sched_clock() reads to every program run, ~70 ns here, which
     would tax the BPF configurations and not the others).  Figure: the median (and min)
     of the per-repetition ratio traced / untraced of the workload's own time figure.
  2. per-event cost: the BPF configurations again, --stats-reps times, with
     kernel.bpf_stats_enabled=1: Δrun_time_ns / Δrun_cnt per program over the workload.
     bpf-empty (empty programs on the same tracepoints) is the floor of that measurement;
     "net" figures are a configuration's minus the floor's, from the same repetition.
  3. per-event cost as the work grows: hackbench -g 2, 5, 10, 20 (40 tasks a group, the
     same number of messages in all) under bpf-empty, migtrace and bpftrace-count, with
     bpf_stats on: it should stay flat.
  4. per-event cost, all of it: bpf_stats times a program only, and a classic tracepoint
     (bpftrace's) fills the event's record before its program runs, so pass 2 leaves that
     out for bpftrace and not for migtrace.  Here every configuration is bracketed instead
     (bench/bpf/bracket.bpf.c): a clock read in a probe attached before the tool and one attached
     after it, on the same tracepoint; the difference is what the tool adds to each event.
     The bracket alone is the floor; "net" is minus bpf-empty, bracketed the same way.
     migtrace's ftrace backend and perf sched record are bracketed too (their tracepoint
     probes, trace_event_raw_event_* and perf_trace_*, are probes like any other): with
     migtrace on BPF, the "backends side by side" table, time ratio and ns per event.

  5. system-wide: `migtrace run -a` (every task, in-kernel aggregates only) beside bpftrace
     counting every switch and bpftrace counting every migration, each bracketed as in
     pass 4 under hackbench, interleaved; figures are ratios paired per repetition (this
     machine is shared: absolute ns swing, the ratio of two tools measured a second apart
     less): per switch, migtrace / bpftrace-switch; per migration, migtrace /
     bpftrace-migrate; and hackbench's time under each / under the bracket alone.

--soak [MIN] runs only the soak: `migtrace run -a` for MIN minutes (10) under hackbench
run back to back, its RSS sampled every 10 s, and prints the RSS slope in KiB/min.

Then the issue's targets, each said met or missed and by how much.

Output: a table for people, one `bench: CONFIG WORKLOAD METRIC VALUE` line per figure
for machines, and bench/results.json (written atomically).  With the default results file
(`make bench`), the table for people is also written to docs/overhead-results.md, atomically,
under a line that says when and on what it was measured: the results docs/overhead.md
links to are generated, never edited by hand.
"""
import contextlib
import datetime
import io
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIGTRACE = os.path.join(ROOT, "migtrace")
CACHEWALK = os.path.join(ROOT, ".output", "workloads", "cachewalk")
FLOOR = os.path.join(ROOT, ".output", "bench", "floor")
BRACKET = os.path.join(ROOT, ".output", "bench", "bracket")
RESULTS = os.path.join(ROOT, "bench", "results.json")
RESULTS_MD = os.path.join(ROOT, "docs", "overhead-results.md")

# Each workload's own figure of merit: seconds (or µs per unit); lower is better.
WORKLOADS = {
    "pipe-pinned": {
        "cmd": ["taskset", "-c", "1", "perf", "bench", "sched", "pipe", "-l", "200000"],
        "figure": r"Total time:\s+([\d.]+)", "unit": "s",
    },
    "hackbench": {
        "cmd": ["hackbench", "-l", "1000"],
        "figure": r"Time:\s+([\d.]+)", "unit": "s",
    },
    "cachewalk": {
        "cmd": [CACHEWALK, "--duration", "2"],
        "figure": r"mean unit ([\d.]+) ", "unit": "µs/unit",
        # Its mean unit swings with where the scheduler puts the threads and with the
        # neighbours of a shared host (one run's ratios spanned 0.52-1.06 under every tool,
        # untraced included): three times the repetitions in the throughput pass, which at
        # ~2.5 s each cost ~2.5 min more, so that its median ratio is worth a target.
        "reps_factor": 3,
    },
}

# bpftrace doing what migtrace's switch and migrate handlers do: a per-task switch-out and
# switch-in timestamp, a run-slice histogram, and the age histogram at migration.
BPFTRACE_SAME = r"""
tracepoint:sched:sched_switch {
    $in = @in[args->prev_pid];
    if ($in) { @slice_us = hist((nsecs - $in) / 1000); }
    @out[args->prev_pid] = nsecs;
    @in[args->next_pid] = nsecs;
}
tracepoint:sched:sched_migrate_task {
    $out = @out[args->pid];
    if ($out) { @age_us = hist((nsecs - $out) / 1000); }
}
END { clear(@in); clear(@out); }
"""
BPFTRACE_COUNT = r"""
tracepoint:sched:sched_switch, tracepoint:sched:sched_migrate_task { @[probe] = count(); }
"""
# Pass 5: the cheapest system-wide tracers of each event, one event each.
BPFTRACE_SWITCH = "tracepoint:sched:sched_switch { @ = count(); }"
BPFTRACE_MIGRATE = "tracepoint:sched:sched_migrate_task { @ = count(); }"
SYSWIDE_WORKLOAD = "hackbench"
SYSWIDE_CONFIGS = ["bracket", "bpf-empty", "migtrace-all", "bpftrace-switch",
                   "bpftrace-migrate"]
# the targets' pairs: (figure, migtrace-all against, limit on the median ratio)
SYSWIDE_TARGETS = (("switch", "bpftrace-switch", 1.0), ("migrate", "bpftrace-migrate", 2.0))
# Soak: RSS flat means a slope under this (a 10 KiB/min leak is 14 MiB a day).
SOAK_SLOPE_LIMIT_KIB_MIN = 10.0
SOAK_SAMPLE_S = 10.0

# Pass 3: the same messages spread over more and more tasks.
SCALING_GROUPS = (2, 5, 10, 20)
SCALING_CONFIGS = ["bpf-empty", "migtrace", "bpftrace-count"]
for _g in SCALING_GROUPS:
    WORKLOADS["hackbench-g%d" % _g] = {
        "cmd": ["hackbench", "-g", str(_g), "-l", str(2000 // _g)],
        "figure": r"Time:\s+([\d.]+)", "unit": "s", "scaling": True,
    }

CONFIGS = ["none", "migtrace", "migtrace-ftrace", "migtrace-other", "perf-sched",
           "bpftrace-same", "bpftrace-count"]
STATS_CONFIGS = ["bpf-empty", "migtrace", "migtrace-other", "bpftrace-same",
                 "bpftrace-count"]
# Pass 4: the configurations bracketed ("bracket": the two halves with nothing between).
BRACKET_CONFIGS = ["bracket", "bpf-empty", "migtrace", "migtrace-ftrace", "perf-sched",
                   "migtrace-other", "bpftrace-count", "bpftrace-same"]
# The tools that launch the workload themselves (held on a FIFO in the bracketed pass).
LAUNCHERS = ("migtrace", "migtrace-ftrace", "perf-sched")
# The side-by-side table of the backends: no tracing, migtrace with each backend, and
# perf sched record (its own data file: every sched event of every CPU).
BACKEND_ROWS = (("none", "no tracing"), ("migtrace", "migtrace, BPF"),
                ("migtrace-ftrace", "migtrace, ftrace"), ("perf-sched", "perf sched record"))
# The programs whose runs are the per-switch and per-migration cost of each configuration.
PROG_NAMES = {
    "bpf-empty": ("floor_switch", "floor_migrate"),
    "migtrace": ("mt_switch", "mt_migrate"),
    "migtrace-other": ("mt_switch", "mt_migrate"),
    "bpftrace-same": ("sched_switch", "sched_migrate_t"),
    "bpftrace-count": ("sched_switch", "sched_migrate_t"),
}


class BenchError(Exception):
    pass


# The report pass: `migtrace report` of a run file of a million migration records, made
# from the checked-in sample run, its peak memory against the target (README, Overhead).
REPORT_SAMPLE = os.path.join(ROOT, "tests", "data", "sample-run.json")
REPORT_RECORDS = 1000000
REPORT_RSS_LIMIT_MIB = 100.0
GNU_TIME = "/usr/bin/time"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def prog_stats():
    """{name: (run_cnt, run_time_ns)} of every loaded BPF program."""
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True)
    if out.returncode:
        raise BenchError("bpftool prog show failed: " + out.stderr.strip())
    stats = {}
    for p in json.loads(out.stdout or "[]"):
        name = p.get("name")
        if name:
            cnt, ns = stats.get(name, (0, 0))
            stats[name] = (cnt + p.get("run_cnt", 0), ns + p.get("run_time_ns", 0))
    return stats


def set_bpf_stats(on):
    with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
        f.write("1" if on else "0")


class Background:
    """A tracer started before the workload and stopped with SIGINT after it."""

    def __init__(self, argv, ready, tmp, name):
        self.name = "%s (%s)" % (os.path.basename(argv[0]), name)
        self.out_path = os.path.join(tmp, name + ".out")
        self.out = open(self.out_path, "w+b")
        self.proc = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.wait_for(ready)

    def wait_for(self, word, timeout_s=30.0):
        """Waits until the tool's output says word (bounded: it is killed past timeout_s)."""
        deadline = time.monotonic() + timeout_s
        while True:
            self.out.seek(0)
            text = self.out.read().decode(errors="replace")
            if word in text:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise BenchError("%s did not say %r: %s" % (self.name, word,
                                                            text.strip()[-400:]))
            time.sleep(0.02)

    def peak_rss_kib(self):
        """VmHWM: ru_maxrss would carry this harness's pre-exec image into it."""
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def stop(self):
        self.rss_kib = self.peak_rss_kib()
        self.proc.send_signal(signal.SIGINT)
        status, ru = wait_escalating(self.proc, self.name, "SIGINT")
        self.proc.returncode = status
        self.out.seek(0)
        text = self.out.read().decode(errors="replace")
        self.out.close()
        return text, ru

    def finish(self, timeout_s):
        """Waits for the tool to end by itself (migtrace at its workload's end); past
        timeout_s it is ended (SIGINT, SIGTERM, SIGKILL).  Returns its output."""
        status, _ = wait_escalating(self.proc, self.name, "the end of its workload",
                                    first_wait=timeout_s)
        self.proc.returncode = status
        self.out.seek(0)
        text = self.out.read().decode(errors="replace")
        self.out.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise BenchError("%s exited with %d: %s" % (self.name,
                             os.waitstatus_to_exitcode(status), text.strip()[-400:]))
        return text

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.out.close()


# Every wait is bounded: a tracer that misses its SIGINT (bpftrace did once, and the bench
# hung for minutes) gets SIGTERM, then SIGKILL, and the harness says which tool it was.
GRACE_S = 10.0
RUN_TIMEOUT_S = 600.0


def wait_escalating(proc, name, sent, first_wait=GRACE_S):
    """Waits for proc after `sent`; escalates to SIGTERM then SIGKILL (its whole session),
    saying so on stderr.  Returns (wait status, rusage or None)."""
    for nxt in (signal.SIGTERM, signal.SIGKILL, None):
        deadline = time.monotonic() + (first_wait if nxt == signal.SIGTERM else GRACE_S)
        while True:
            try:
                pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            except ChildProcessError:
                return 0, None
            if pid:
                return status, ru
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if nxt is None:
            break
        print("bench: %s did not end %.0f s after %s: sending %s" % (
            name, first_wait if nxt == signal.SIGTERM else GRACE_S, sent,
            signal.Signals(nxt).name), file=sys.stderr)
        try:
            os.killpg(proc.pid, nxt)
        except (ProcessLookupError, PermissionError):
            proc.send_signal(nxt)
        sent = signal.Signals(nxt).name
    raise BenchError("%s survived SIGKILL for %.0f s" % (name, GRACE_S))


def run_measured(argv, env=None, timeout_s=RUN_TIMEOUT_S):
    """Runs argv to completion: (stdout+stderr text, rusage, wall s).  Past timeout_s it is
    ended (SIGINT, SIGTERM, SIGKILL) and the run is an error naming the command."""
    t0 = time.monotonic()
    out_f = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdout=out_f, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)	# rusage: wait4, not wait
        if pid:
            break
        if time.monotonic() - t0 > timeout_s:
            os.killpg(proc.pid, signal.SIGINT)
            wait_escalating(proc, os.path.basename(argv[0]), "SIGINT")
            raise BenchError("%s ran past its %.0f s limit and was ended" % (
                " ".join(argv[:6]), timeout_s))
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    out_f.seek(0)
    out = out_f.read().decode(errors="replace")
    out_f.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise BenchError("%s exited with %d: %s" % (" ".join(argv[:6]),
                         os.waitstatus_to_exitcode(status), out.strip()[-400:]))
    return out, ru, wall


def figure_of(workload, text):
    m = re.search(WORKLOADS[workload]["figure"], text)
    if not m:
        raise BenchError("no figure (%s) in the output of %s:\n%s" % (
            WORKLOADS[workload]["figure"], workload, text.strip()[-400:]))
    return float(m.group(1))


def put_runs(res, config, runs):
    """ns per run and runs of the configuration's switch and migrate programs, from
    runs = {program name: (run_cnt, run_time_ns)}."""
    for key, name in zip(("switch", "migrate"), PROG_NAMES[config]):
        cnt, ns = runs.get(name, (0, 0))
        res["ns_per_" + key] = ns / cnt if cnt else None
        res["runs_" + key] = cnt


def run_one(config, workload, tmp, with_stats):
    """One workload run under one configuration: a dict of what was measured."""
    cmd = WORKLOADS[workload]["cmd"]
    res = {}
    bg = None
    before = None
    json_path = os.path.join(tmp, "run.json")
    try:
        if config == "none":
            text, ru, _ = run_measured(cmd)
        elif config == "migtrace":
            text, ru, _ = run_measured([MIGTRACE, "run", "--backend", "bpf", "-o", json_path,
                                        "--"] + cmd)
        elif config == "migtrace-ftrace":
            text, ru, _ = run_measured([MIGTRACE, "run", "--backend", "ftrace", "-o",
                                        json_path, "--"] + cmd)
        elif config == "perf-sched":
            data = os.path.join(tmp, "perf.data")
            text, ru, _ = run_measured(["perf", "sched", "record", "-o", data, "--"] + cmd)
            res["bytes_written"] = os.path.getsize(data)
            lost = re.findall(r"lost (\d+)", text)
            res["dropped"] = sum(int(x) for x in lost)
            os.unlink(data)
        else:
            bg = start_background_tool(config, tmp, json_path)
            before = prog_stats() if with_stats else None
            text, ru, _ = run_measured(cmd)
            after = prog_stats() if with_stats else None
            bg_text, _ = bg.stop()
            rss_kib = bg.rss_kib
            bg = None
            if config.startswith("bpftrace"):
                res["bytes_written"] = len(bg_text.encode())
                res["rss_kib"] = rss_kib
            if before is not None:
                put_runs(res, config, {n: (c - before.get(n, (0, 0))[0],
                                           ns - before.get(n, (0, 0))[1])
                                       for n, (c, ns) in after.items()})
        res["figure"] = figure_of(workload, text)
        res["workload_cpu_s"] = ru.ru_utime + ru.ru_stime
        if config in ("migtrace", "migtrace-ftrace", "migtrace-other"):
            with open(json_path) as f:
                run = json.load(f)
            cost = run["cost"]
            self_s = cost["self_user_s"] + cost["self_sys_s"]
            # migtrace tracing the benchmark counts it as its child; otherwise the
            # benchmark ran beside it and was waited for here.
            wl = (cost["workload_cpu_s"] if config != "migtrace-other"
                  else res["workload_cpu_s"])
            res["user_cpu_pct"] = 100.0 * self_s / wl if wl else None
            # the same without the one-off load/verify/attach
            res["user_cpu_pct_tracing"] = (100.0 * (self_s - cost["self_startup_s"]) / wl
                                           if wl else None)
            res["rss_kib"] = cost["self_max_rss_kib"]
            res["bytes_written"] = os.path.getsize(json_path)
            res["dropped"] = run["stats"]["records_lost"] + run["stats"].get("units_lost", 0)
            # the ftrace backend's ring overruns (meta.backend, docs/run-file.md)
            backend = run["meta"].get("backend")
            if isinstance(backend, dict):
                res["dropped"] += backend.get("lost_events") or 0
            if with_stats and config == "migtrace":
                # it launched the benchmark: its own counts cover exactly that run
                put_runs(res, config, {n: (p["run_cnt"], p["run_time_ns"])
                                       for n, p in cost["programs"].items()})
            os.unlink(json_path)
    finally:
        if bg:
            bg.kill()
    return res


def start_background_tool(config, tmp, json_path):
    """A tracer that runs beside the workload, started and attached."""
    if config == "migtrace-other":
        return Background([MIGTRACE, "run", "--backend", "bpf", "-o", json_path, "--",
                           "sleep", "3600"],
                          "Tracing migrations", tmp, config)
    if config == "bpf-empty":
        return Background([FLOOR], "attached", tmp, config)
    if config == "migtrace-all":
        return Background([MIGTRACE, "run", "--backend", "bpf", "-a"], "Tracing migrations",
                          tmp, config)
    if config in ("bpftrace-switch", "bpftrace-migrate"):
        sw = config == "bpftrace-switch"
        bg = Background(["bpftrace", "-e", BPFTRACE_SWITCH if sw else BPFTRACE_MIGRATE],
                        "Attaching", tmp, config)
        wait_perf_attached(bg, ("sched_switch",) if sw else ("sched_migrate_task",))
        return bg
    script = BPFTRACE_SAME if config == "bpftrace-same" else BPFTRACE_COUNT
    bg = Background(["bpftrace", "-e", script], "Attaching", tmp, config)
    wait_perf_attached(bg)
    return bg


def wait_perf_attached(bg, tracepoints=("sched_switch", "sched_migrate_task"), timeout_s=30.0):
    """bpftrace says "Attaching" before it attaches: waits until bpftool lists its programs
    on the tracepoints (a classic tracepoint's probe is registered when the perf event is
    opened, before its program is set), so that what follows comes after them."""
    deadline = time.monotonic() + timeout_s
    while True:
        out = subprocess.run(["bpftool", "-j", "perf", "show"], capture_output=True, text=True)
        try:
            seen = {e.get("tracepoint") for e in json.loads(out.stdout or "[]")
                    if e.get("pid") == bg.proc.pid}
        except ValueError:
            seen = set()
        if set(tracepoints) <= seen:
            return
        if bg.proc.poll() is not None or time.monotonic() > deadline:
            raise BenchError("%s never attached to %s (bpftool perf show: %s)" % (
                bg.name, ", ".join(tracepoints), out.stdout.strip()[-300:]))
        time.sleep(0.02)


def wait_file(path, bg, timeout_s=30.0):
    """Waits until path exists (the held workload started: its tool is attached)."""
    deadline = time.monotonic() + timeout_s
    while not os.path.exists(path):
        if bg.proc.poll() is not None or time.monotonic() > deadline:
            bg.out.seek(0)
            text = bg.out.read().decode(errors="replace")
            bg.kill()
            raise BenchError("%s never started its held workload: %s" % (bg.name,
                                                                        text.strip()[-400:]))
        time.sleep(0.01)


def open_gate(path, proc, timeout_s=30.0):
    """Opens the FIFO the held workload waits on, and so releases it."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            return
        except OSError as e:	# ENXIO: its reader has not opened it yet
            if proc.poll() is not None or time.monotonic() > deadline:
                raise BenchError("the held workload never opened its gate %s: %s" % (path, e))
            time.sleep(0.01)


def run_bracketed(config, workload, tmp):
    """One workload run with the tool bracketed (pass 4): ns per event inside the bracket.
    The bracket opens first, the tool attaches, the bracket closes, then the workload
    runs.  A tool that launches its workload itself (LAUNCHERS) launches a shell held on a
    FIFO instead, which marks a file when it starts (migtrace starts it once attached, perf
    record once its events are enabled) and execs the workload once the gate opens."""
    cmd = WORKLOADS[workload]["cmd"]
    json_path = os.path.join(tmp, "run.json")
    gate, ready = os.path.join(tmp, "gate"), os.path.join(tmp, "ready")
    data = os.path.join(tmp, "perf.data")
    held = ["sh", "-c", ': >"$1"; read _ <"$0"; shift; exec "$@"', gate, ready] + cmd
    br = Background([BRACKET], "opened", tmp, "bracket")
    tool = None
    try:
        if config in LAUNCHERS:
            for path in (gate, ready):
                if os.path.exists(path):
                    os.unlink(path)
            os.mkfifo(gate)
            if config == "perf-sched":
                argv = ["perf", "sched", "record", "-o", data, "--"]
            else:
                argv = [MIGTRACE, "run", "--backend",
                        "ftrace" if config == "migtrace-ftrace" else "bpf", "-o", json_path, "--"]
            tool = Background(argv + held, "", tmp, config)
            wait_file(ready, tool)
        elif config != "bracket":
            tool = start_background_tool(config, tmp, json_path)	# inside the bracket
        br.proc.send_signal(signal.SIGUSR1)
        br.wait_for("closed")
        if config in LAUNCHERS:
            open_gate(gate, tool.proc)
            text = tool.finish(RUN_TIMEOUT_S)
            tool = None
        else:
            text, _, _ = run_measured(cmd)
        br_text, _ = br.stop()
        br = None
        if tool:
            tool.stop()
            tool = None
    finally:
        for bg in (tool, br):
            if bg:
                bg.kill()
        if os.path.exists(data):
            os.unlink(data)
    figure = figure_of(workload, text)	# the workload ran and said so
    try:
        totals = json.loads([l for l in br_text.splitlines() if l.startswith("{")][-1])
    except (IndexError, ValueError):
        raise BenchError("the bracket printed no totals: " + br_text.strip()[-400:])
    res = {"figure": figure}
    for key in ("switch", "migrate"):
        ev = totals[key]["events"]
        res["br_ns_per_" + key] = totals[key]["sum_ns"] / ev if ev else None
        res["br_events_" + key] = ev
    return res


def paired_diff(runs, base, key):
    """summarize() of run - base for key, each run paired with the base of its repetition."""
    return summarize([r[key] - b[key] if r.get(key) is not None and b.get(key) is not None
                      else None for r, b in zip(runs, base)])


def rotated(items, k):
    k %= len(items)
    return items[k:] + items[:k]


def summarize(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "n": len(values)}


def calibrate_bench(reps, tmp):
    """calibrate on 2 CPUs at defaults, reps times: wall time and the hot time's CV."""
    walls, hot, robust = [], [], []
    path = os.path.join(tmp, "cal.json")
    for _ in range(reps):
        t0 = time.monotonic()
        run_measured([MIGTRACE, "calibrate", "--cpus", "0,1", "-o", path])
        walls.append(time.monotonic() - t0)
        with open(path) as f:
            cal = json.load(f)
        # docs/calibration-file.md
        hot.append(cal["hot_seed_ns"])
        robust.append(cal["hot_robust_ns"])

    def cv(xs):
        return 100.0 * statistics.pstdev(xs) / statistics.mean(xs) if statistics.mean(xs) else 0

    return {"seconds": statistics.median(walls), "hot_time_ns": hot,
            "hot_time_cv_pct": cv(hot), "hot_time_robust_ns": robust,
            "hot_time_robust_cv_pct": cv(robust)}


def write_big_run(src, dst, records):
    """dst: the run file src with its migration records repeated until there are at least
    `records` of them, and every count the reader checks against the records scaled alike
    (stats, the age and kernel-age histograms, the CPU pairs, the verdict's migrations), so
    that it reads as one consistent run.  Line by line (the run file puts each top-level
    member and each record on a line of its own): this process stays small.  Returns the
    number of records written."""
    with open(src, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = lines.index('"migrations":[')
    end = lines.index("],", start)
    recs = [l.rstrip(",") for l in lines[start + 1:end]]
    k = -(-records // len(recs))

    def scaled(v):
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, int):
            return v * k
        if isinstance(v, list):
            return [scaled(x) for x in v]
        if isinstance(v, dict):
            return {n: scaled(x) for n, x in v.items()}
        return v

    def section(line, fix):
        name, _, value = line.partition(":")
        d = json.loads(value.rstrip(","))
        fix(d)
        return "%s:%s," % (name, json.dumps(d, separators=(",", ":"), ensure_ascii=False))

    def stats(d):
        keep = {n: d[n] for n in ("same_cpu_events", "switches_in", "traced_tasks", "units",
                                  "units_lost", "units_not_kept", "units_read",
                                  "offcpu_records", "offcpu_records_lost") if n in d}
        d.update(scaled(d))
        d.update(keep)
        d["completeness"]["storage_busy_events"] //= k

    def histograms(d):
        d["age"] = scaled(d["age"])
        d["kernel_age_lb_pull"] = scaled(d["kernel_age_lb_pull"])

    def pairs(d):
        for p in d:
            p["count"] *= k

    def verdict(d):
        for n in ("run_migrations", "band_migrations"):
            if d.get(n) is not None:
                d[n] *= k

    def config(d):
        d["max_records"] = 0	# all kept: no record of the repeats is "not kept"

    fixes = {'"stats"': stats, '"histograms"': histograms, '"cpu_pairs"': pairs,
             '"verdict"': verdict, '"config"': config}
    with open(dst, "w", encoding="utf-8") as out:
        for i, line in enumerate(lines[:start + 1]):
            name = line.partition(":")[0]
            out.write((section(line, fixes[name]) if name in fixes else line) + "\n")
        for rep in range(k):
            last = rep == k - 1
            for j, rec in enumerate(recs):
                out.write(rec + ("\n" if last and j == len(recs) - 1 else ",\n"))
        out.write("\n".join(lines[end:]))
    return k * len(recs)


def report_bench(tmp):
    """report of a run file of REPORT_RECORDS records: the text alone (the target) and with
    --csv (which lists every record, so keeps them all), each run under GNU time for the
    peak RSS of migtrace itself (a child's rusage from here would carry this process's own
    size: Linux keeps the pre-exec image's peak in it)."""
    if not os.access(GNU_TIME, os.X_OK):
        raise BenchError("%s is missing: `make deps` installs it (package time)" % GNU_TIME)
    path = os.path.join(tmp, "big-run.json")
    n = write_big_run(REPORT_SAMPLE, path, REPORT_RECORDS)
    res = {"records": n, "file_bytes": os.path.getsize(path)}
    for name, extra in (("text", []), ("csv", ["--csv", os.path.join(tmp, "big-csv")])):
        out, _, wall = run_measured([GNU_TIME, "-f", "rss_kib %M", MIGTRACE, "report"] +
                                    extra + [path])
        m = re.search(r"^rss_kib (\d+)$", out, re.M)
        if not m:
            raise BenchError("no peak RSS from %s: %s" % (GNU_TIME, out.strip()[-400:]))
        res[name] = {"rss_kib": int(m.group(1)), "seconds": wall}
    os.unlink(path)
    shutil.rmtree(os.path.join(tmp, "big-csv"), ignore_errors=True)
    return res


def report_lines(rep):
    mb = rep["file_bytes"] / 1e6
    return ["bench: report %s %s %s" % (name, m, fmt(rep[name][m], 3 if m == "seconds" else 0))
            for name in ("text", "csv") for m in ("rss_kib", "seconds")] + [
            "bench: report file records %d" % rep["records"],
            "bench: report file mb %.0f" % mb]


def check_setup():
    if os.geteuid() != 0:
        raise BenchError("needs root: perf sched record, bpftrace and migtrace load BPF "
                         "programs (run `sudo make bench`)")
    for path in (MIGTRACE, CACHEWALK, FLOOR, BRACKET):
        if not os.access(path, os.X_OK):
            raise BenchError("%s is missing: run `make bench`, which builds it" % path)
    for tool in ("perf", "bpftrace", "hackbench", "bpftool", "taskset"):
        if not shutil.which(tool):
            raise BenchError("%s is not installed: `make deps` installs it" % tool)
    if os.cpu_count() < 2:
        raise BenchError("needs 2 CPUs: the pinned pipe runs on CPU 1")


def atomic_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)


def fmt(v, digits=2):
    if v is None:
        return "-"
    if isinstance(v, float) and abs(v) < 1000:
        return "%.*f" % (digits, v)
    return "%d" % round(v)


def syswide_pass(reps, tmp, t_start):
    """Pass 5: each configuration bracketed under hackbench, reps times, rotated."""
    raw = {c: [] for c in SYSWIDE_CONFIGS}
    for rep in range(reps):
        for c in rotated(SYSWIDE_CONFIGS, rep):
            log("bench: %-10s rep %d/%d  %-16s %-12s %5.0f s" % (
                "system", rep + 1, reps, c, SYSWIDE_WORKLOAD, time.monotonic() - t_start))
            raw[c].append(run_bracketed(c, SYSWIDE_WORKLOAD, tmp))
    return raw


def syswide_figures(raw):
    """Pass 5's figures: per configuration ns per event (minus the bracket alone; net:
    minus bpf-empty) and the workload's time ratio to the bracket alone; then migtrace-all
    against each bpftrace, as ratios paired per repetition (SYSWIDE_TARGETS)."""
    alone, empty = raw["bracket"], raw["bpf-empty"]
    out = {"command": " ".join(WORKLOADS[SYSWIDE_WORKLOAD]["cmd"]), "reps": len(alone),
           "configs": {}, "ratios": {}}
    for c in SYSWIDE_CONFIGS[1:]:
        fig = {"time_ratio": summarize([r["figure"] / b["figure"]
                                        for r, b in zip(raw[c], alone)])}
        for key in ("switch", "migrate"):
            m = "br_ns_per_" + key
            fig["full_ns_per_" + key] = paired_diff(raw[c], alone, m)
            if c != "bpf-empty":
                fig["full_ns_per_%s_net" % key] = paired_diff(raw[c], empty, m)
        out["configs"][c] = fig
    for key, other, limit in SYSWIDE_TARGETS:
        m = "br_ns_per_" + key
        ratios = []
        for a, o, b in zip(raw["migtrace-all"], raw[other], alone):
            if None in (a.get(m), o.get(m), b.get(m)) or o[m] - b[m] <= 0:
                continue
            ratios.append((a[m] - b[m]) / (o[m] - b[m]))
        out["ratios"][key] = {"against": other, "limit": limit, "ratio": summarize(ratios)}
    return out


def print_syswide(sw):
    print("\nsystem-wide: migtrace run -a (every task, in-kernel aggregates only) beside "
          "bpftrace counting one event,\nbracketed under %s, %d interleaved reps; median ns "
          "per event minus the bracket alone (net: minus bpf-empty),\nand %s's time / its "
          "time under the bracket alone:" % (sw["command"], sw["reps"], SYSWIDE_WORKLOAD))
    print("  %-18s" % "config" + "".join("%10s" % h for h in (
        "ns/sw", "net", "ns/mig", "net", "time")))
    for c, fig in sw["configs"].items():
        vals = [(fig.get(m) or {}).get("median") for m in (
            "full_ns_per_switch", "full_ns_per_switch_net", "full_ns_per_migrate",
            "full_ns_per_migrate_net", "time_ratio")]
        print("  %-18s" % c + "".join("%10s" % fmt(v, 3 if i == 4 else 1)
                                      for i, v in enumerate(vals)))
    for key, r in sw["ratios"].items():
        q = r["ratio"] or {}
        print("  per %-7s migtrace-all / %-16s median %s, min %s (%s reps; limit %s)" % (
            key, r["against"], fmt(q.get("median"), 2), fmt(q.get("min"), 2), q.get("n", 0),
            fmt(r["limit"], 1)))


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def slope(points):
    """Least-squares slope of (x, y) points; None under two."""
    if len(points) < 2:
        return None
    mx = statistics.mean(x for x, _ in points)
    my = statistics.mean(y for _, y in points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else None


def soak(minutes):
    """--soak: `migtrace run -a` for minutes under hackbench run back to back; its RSS every
    SOAK_SAMPLE_S, and the slope in KiB/min, the first minute (start-up) left out."""
    if os.geteuid() != 0:
        raise BenchError("needs root: migtrace loads BPF programs (sudo)")
    for tool in ("hackbench",):
        if not shutil.which(tool):
            raise BenchError("%s is not installed: `make deps` installs it" % tool)
    tmp = tempfile.mkdtemp(prefix="migtrace-soak.")
    bg, hb, samples, runs = None, None, [], 0
    try:
        bg = Background([MIGTRACE, "run", "-a"], "Tracing migrations", tmp, "soak")
        t0 = time.monotonic()
        next_s = t0
        while time.monotonic() < t0 + minutes * 60:
            if hb is None or hb.poll() is not None:
                hb = subprocess.Popen(WORKLOADS["hackbench"]["cmd"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
                runs += 1
            if time.monotonic() >= next_s:
                kib = rss_kib(bg.proc.pid)
                if kib is None:
                    raise BenchError("migtrace run -a ended during the soak")
                samples.append(((time.monotonic() - t0) / 60.0, kib))
                log("bench: soak %5.1f min  RSS %d KiB  hackbench runs %d" % (
                    samples[-1][0], kib, runs))
                next_s += SOAK_SAMPLE_S
            time.sleep(0.2)
        if hb.poll() is None:
            hb.wait()
        text, _ = bg.stop()
        bg = None
        if bg is None and "tracing ended by" not in text:
            raise BenchError("migtrace run -a printed no summary: " + text.strip()[-300:])
    finally:
        if hb and hb.poll() is None:
            hb.kill()
            hb.wait()
        if bg:
            bg.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    steady = [p for p in samples if p[0] >= 1.0] if minutes > 2 else samples
    k = slope(steady)
    print("soak: migtrace run -a for %.1f min under %s (%d runs back to back): RSS %d KiB "
          "at the start, %d KiB at the end, max %d KiB; slope %s KiB/min over %d samples%s" % (
              minutes, " ".join(WORKLOADS["hackbench"]["cmd"]), runs, samples[0][1],
              samples[-1][1], max(v for _, v in samples), fmt(k, 2), len(steady),
              " (the first minute left out)" if minutes > 2 else ""))
    print("bench: soak minutes %.1f" % minutes)
    print("bench: soak rss_slope_kib_per_min %s" % fmt(k, 2))
    if k is not None:
        print("bench: target soak_rss_flat %s %s" % (
            "met" if k <= SOAK_SLOPE_LIMIT_KIB_MIN else "missed", fmt(k, 3)))
        print("%s RSS flat: slope %s KiB/min (limit %s)" % (
            "met" if k <= SOAK_SLOPE_LIMIT_KIB_MIN else "MISSED", fmt(k, 2),
            fmt(SOAK_SLOPE_LIMIT_KIB_MIN, 0)))


def syswide_only(reps):
    """--system-wide-only: pass 5 alone, its table and targets; no results file."""
    check_setup()
    tmp = tempfile.mkdtemp(prefix="migtrace-bench.")
    with open("/proc/sys/kernel/bpf_stats_enabled") as f:
        stats_was = f.read().strip()
    try:
        set_bpf_stats(False)
        sw = syswide_figures(syswide_pass(reps, tmp, time.monotonic()))
    finally:
        with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
            f.write(stats_was)
        shutil.rmtree(tmp, ignore_errors=True)
    print_syswide(sw)
    res = {"syswide": sw}
    for t in targets(res):
        print("%s %s: %s (limit %s)" % ("met" if t["met"] else "MISSED", t["what"],
                                        fmt(t["value"], 3), fmt(t["limit"], 1)))
    print()
    for line in syswide_lines(sw) + ["bench: target %s %s %s" % (
            t["name"], "met" if t["met"] else "missed", fmt(t["value"], 3))
            for t in targets(res)]:
        print(line)


def syswide_lines(sw):
    lines = []
    for c, fig in sw["configs"].items():
        for m in ("full_ns_per_switch", "full_ns_per_switch_net", "full_ns_per_migrate",
                  "full_ns_per_migrate_net", "time_ratio"):
            if fig.get(m):
                lines.append("bench: %s system-wide %s %s" % (
                    c, m, fmt(fig[m]["median"], 3 if m == "time_ratio" else 1)))
    for key, r in sw["ratios"].items():
        if r["ratio"]:
            lines.append("bench: migtrace-all system-wide %s_ratio_to_%s %s" % (
                key, r["against"], fmt(r["ratio"]["median"], 3)))
    return lines


def scale_workloads(n):
    """Divides each workload's -l and the report pass's records by n (--scale)."""
    global REPORT_RECORDS
    for w in WORKLOADS.values():
        cmd = w["cmd"]
        for i in range(len(cmd) - 1):
            if cmd[i] == "-l":
                cmd[i + 1] = str(max(1, int(cmd[i + 1]) // n))
    REPORT_RECORDS //= n


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", 5)),
                    help="throughput repetitions per configuration (default 5; $BENCH_REPS)")
    ap.add_argument("--stats-reps", type=int,
                    default=int(os.environ.get("BENCH_STATS_REPS", 2)),
                    help="bpf_stats repetitions per BPF configuration (default 2)")
    main_workloads = [w for w in WORKLOADS if not WORKLOADS[w].get("scaling")]
    ap.add_argument("--workloads", default=os.environ.get("BENCH_WORKLOADS",
                                                          ",".join(main_workloads)),
                    help="comma-separated subset of " + ", ".join(main_workloads))
    ap.add_argument("--scaling-groups", default=os.environ.get(
        "BENCH_SCALING_GROUPS", ",".join(str(g) for g in SCALING_GROUPS)),
                    help="hackbench -g values of the scaling pass (default %(default)s; "
                    "empty: no scaling pass)")
    ap.add_argument("--calibrate-reps", type=int, default=5,
                    help="calibrate runs (default %(default)s; 0: none)")
    ap.add_argument("--bracket-reps", type=int,
                    default=(int(os.environ["BENCH_BRACKET_REPS"])
                             if os.environ.get("BENCH_BRACKET_REPS") else None),
                    help="bracketed-pass repetitions (default: --stats-reps; "
                    "$BENCH_BRACKET_REPS)")
    ap.add_argument("--configs", default=os.environ.get("BENCH_CONFIGS", ""),
                    help="comma-separated configurations to run (default: all; each pass "
                    "keeps the floors it subtracts: none, bracket, bpf-empty), e.g. "
                    "migtrace,migtrace-ftrace,perf-sched for the backends alone")
    ap.add_argument("--no-report", action="store_true",
                    help="no report pass (the 1 M-record run file)")
    ap.add_argument("-o", "--output", default=RESULTS, help="results file (%(default)s)")
    ap.add_argument("--results-md", metavar="FILE",
                    help="the table for people, as Markdown (default: %s when the "
                    "results file is the default one, else none; '': none)"
                    % os.path.relpath(RESULTS_MD, ROOT))
    ap.add_argument("--report-only", action="store_true",
                    help="only the report pass (a %d-record run file reported; no root, no "
                    "results file): its figures and target" % REPORT_RECORDS)
    ap.add_argument("--syswide-reps", type=int,
                    default=int(os.environ.get("BENCH_SYSWIDE_REPS", 5)),
                    help="system-wide pass repetitions (default 5; 0: no such pass)")
    ap.add_argument("--system-wide-only", action="store_true",
                    help="only the system-wide pass: its table and targets, no results file")
    ap.add_argument("--soak", type=float, nargs="?", const=10.0, metavar="MIN",
                    help="only the RSS soak: migtrace run -a for MIN minutes (10) under "
                    "hackbench; prints the RSS slope in KiB/min")
    ap.add_argument("--scale", type=int, default=int(os.environ.get("BENCH_SCALE", 1)),
                    help="divide every workload's loop count (-l) and the report pass's "
                    "records by N (default 1: the figures of record; the test suite's "
                    "smoke runs 4): each figure is per event, so it keeps its meaning, "
                    "with more noise")
    args = ap.parse_args()
    if args.scale < 1:
        raise BenchError("--scale: %d is not a whole number from 1" % args.scale)
    scale_workloads(args.scale)
    if args.results_md is None:
        args.results_md = RESULTS_MD if os.path.abspath(args.output) == RESULTS else ""
    if args.report_only:
        return report_only()
    if args.soak is not None:
        return soak(args.soak)
    if args.system_wide_only:
        return syswide_only(args.syswide_reps)
    workloads = [w for w in args.workloads.split(",") if w]
    for w in workloads:
        if w not in main_workloads:
            raise BenchError("unknown workload %r: one of %s" % (w, ", ".join(main_workloads)))
    scaling = []
    for g in (x for x in args.scaling_groups.split(",") if x):
        if "hackbench-g" + g not in WORKLOADS:
            raise BenchError("--scaling-groups: %r is not one of %s" % (
                g, ", ".join(str(x) for x in SCALING_GROUPS)))
        scaling.append("hackbench-g" + g)
    every = set(CONFIGS + STATS_CONFIGS + BRACKET_CONFIGS)
    chosen = set(c for c in args.configs.split(",") if c) if args.configs else every
    if chosen - every:
        raise BenchError("--configs: %s: not one of %s" % (", ".join(sorted(chosen - every)),
                                                            ", ".join(sorted(every))))

    def subset(configs, floors):
        """configs as chosen, with the floors a pass subtracts; none when only floors."""
        picked = [c for c in configs if c in chosen and c not in floors]
        return [c for c in configs if c in floors or c in picked] if picked else []
    configs = subset(CONFIGS, ("none",))
    stats_configs = subset(STATS_CONFIGS, ("bpf-empty",))
    scaling_configs = subset(SCALING_CONFIGS, ("bpf-empty",))
    bracket_configs = subset(BRACKET_CONFIGS, ("bracket", "bpf-empty"))
    bracket_reps = args.stats_reps if args.bracket_reps is None else args.bracket_reps
    check_setup()

    with open("/proc/sys/kernel/bpf_stats_enabled") as f:
        stats_was = f.read().strip()
    tmp = tempfile.mkdtemp(prefix="migtrace-bench.")
    raw = {w: {c: [] for c in CONFIGS + ["bpf-empty"]} for w in workloads}
    stats_raw = {w: {c: [] for c in STATS_CONFIGS} for w in workloads}
    scaling_raw = {w: {c: [] for c in SCALING_CONFIGS} for w in scaling}
    bracket_raw = {w: {c: [] for c in BRACKET_CONFIGS} for w in workloads}
    t_start = time.monotonic()
    try:
        def run_pass(label, reps, configs, with_stats, into, wls=workloads, factor=False):
            set_bpf_stats(with_stats)
            def reps_of(w):
                return reps * (WORKLOADS[w].get("reps_factor", 1) if factor else 1)
            total = max(reps_of(w) for w in wls)
            for rep in range(total):
                for w in (w for w in wls if rep < reps_of(w)):
                    for c in rotated(configs, rep):
                        log("bench: %-10s rep %d/%d  %-14s %-12s %5.0f s" % (
                            label, rep + 1, reps_of(w), c, w, time.monotonic() - t_start))
                        into[w][c].append(run_one(c, w, tmp, with_stats))

        if configs:
            run_pass("throughput", args.reps, configs, False, raw, factor=True)
        if stats_configs:
            run_pass("bpf_stats", args.stats_reps, stats_configs, True, stats_raw)
        if scaling_configs and scaling:
            run_pass("scaling", args.stats_reps, scaling_configs, True, scaling_raw, scaling)
        set_bpf_stats(False)
        for rep in range(bracket_reps if bracket_configs else 0):
            for w in workloads:
                for c in rotated(bracket_configs, rep):
                    log("bench: %-10s rep %d/%d  %-14s %-12s %5.0f s" % (
                        "bracketed", rep + 1, bracket_reps, c, w,
                        time.monotonic() - t_start))
                    bracket_raw[w][c].append(run_bracketed(c, w, tmp))
        syswide = (syswide_figures(syswide_pass(args.syswide_reps, tmp, t_start))
                   if args.syswide_reps > 0 else None)
        cal = None
        if args.calibrate_reps > 0:
            log("bench: calibrate x %d" % args.calibrate_reps)
            cal = calibrate_bench(args.calibrate_reps, tmp)
        rep = None
        if not args.no_report:
            log("bench: report of a %d-record run file" % REPORT_RECORDS)
            rep = report_bench(tmp)
    finally:
        with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
            f.write(stats_was)
        shutil.rmtree(tmp, ignore_errors=True)

    # Figures.
    results = {"schema": "migtrace.bench/2", "reps": args.reps, "stats_reps": args.stats_reps,
               "kernel": os.uname().release, "cpus": os.cpu_count(),
               "wall_s": time.monotonic() - t_start, "workloads": {}, "calibrate": cal,
               "report": rep, "syswide": syswide}
    lines = []
    for w in workloads:
        base = [r["figure"] for r in raw[w]["none"]]
        wres = {"unit": WORKLOADS[w]["unit"], "command": " ".join(WORKLOADS[w]["cmd"]),
                "configs": {}}
        for c in CONFIGS + ["bpf-empty"]:
            runs = raw[w][c]
            srun = stats_raw[w].get(c, [])
            fig = {}
            if runs:
                fig["figure"] = summarize([r["figure"] for r in runs])
                fig["ratio"] = summarize([r["figure"] / b for r, b in zip(runs, base)])
                for m in ("user_cpu_pct", "user_cpu_pct_tracing", "rss_kib", "bytes_written",
                          "dropped"):
                    if any(m in r for r in runs):
                        fig[m] = summarize([r.get(m) for r in runs])
            floor = stats_raw[w]["bpf-empty"]
            for m in ("ns_per_switch", "ns_per_migrate"):
                if srun and any(r.get(m) is not None for r in srun):
                    fig[m] = summarize([r.get(m) for r in srun])
                    if c != "bpf-empty":
                        fig[m + "_net"] = paired_diff(srun, floor, m)
                    fig[m.replace("ns_per", "runs")] = summarize(
                        [r.get(m.replace("ns_per", "runs")) for r in srun])
            # pass 4: all of the per-event cost, bracketed; minus the bracket alone, and
            # net: minus bpf-empty, each from the same repetition
            brun, alone = bracket_raw[w].get(c, []), bracket_raw[w]["bracket"]
            empty = bracket_raw[w]["bpf-empty"]
            for key in ("switch", "migrate"):
                m = "br_ns_per_" + key
                if c == "bracket" or not brun:
                    continue
                fig["full_ns_per_" + key] = paired_diff(brun, alone, m)
                if c != "bpf-empty":
                    fig["full_ns_per_%s_net" % key] = paired_diff(brun, empty, m)
            if fig:
                wres["configs"][c] = fig
            for m in ("ratio", "ns_per_switch", "ns_per_switch_net", "ns_per_migrate",
                      "ns_per_migrate_net", "full_ns_per_switch", "full_ns_per_switch_net",
                      "full_ns_per_migrate", "full_ns_per_migrate_net", "user_cpu_pct",
                      "user_cpu_pct_tracing", "rss_kib", "bytes_written", "dropped"):
                if m in fig and fig[m]:
                    if m == "ratio" and c == "none":
                        continue
                    v = fig[m]["median"]
                    lines.append("bench: %s %s %s %s" % (c, w, m, fmt(v, 3 if m == "ratio"
                                                                        else 1)))
        results["workloads"][w] = wres
    results["scaling"] = {}
    for w in scaling:
        floor = scaling_raw[w]["bpf-empty"]
        wres = {"command": " ".join(WORKLOADS[w]["cmd"]), "configs": {}}
        for c in SCALING_CONFIGS:
            srun = scaling_raw[w][c]
            fig = {}
            for m in ("ns_per_switch", "ns_per_migrate"):
                fig[m] = summarize([r.get(m) for r in srun])
                if c != "bpf-empty":
                    fig[m + "_net"] = paired_diff(srun, floor, m)
                    if fig[m + "_net"]:
                        lines.append("bench: %s %s %s_net %s" % (
                            c, w, m, fmt(fig[m + "_net"]["median"], 1)))
                fig[m.replace("ns_per", "runs")] = summarize(
                    [r.get(m.replace("ns_per", "runs")) for r in srun])
            wres["configs"][c] = fig
        results["scaling"][w] = wres
    if syswide:
        lines += syswide_lines(syswide)
    results["targets"] = targets(results)
    for t in results["targets"]:
        lines.append("bench: target %s %s %s" % (t["name"], "met" if t["met"] else "missed",
                                                   fmt(t["value"], 3)))
    if cal:
        lines.append("bench: calibrate 2cpu seconds %.3f" % cal["seconds"])
        # the hot time migtrace reports and uses (undisturbed median x 6); the seed's max
        # rule beside it
        lines.append("bench: calibrate 2cpu hot_time_cv_pct %.1f" % cal["hot_time_robust_cv_pct"])
        lines.append("bench: calibrate 2cpu hot_time_seed_cv_pct %.1f" % cal["hot_time_cv_pct"])
    if rep:
        lines += report_lines(rep)

    table = io.StringIO()
    with contextlib.redirect_stdout(table):
        print_table(results, workloads)
    sys.stdout.write(table.getvalue())
    print()
    for line in lines:
        print(line)
    atomic_write(args.output, json.dumps(results, indent=1) + "\n")
    print("\nbench: wrote %s in %.0f s" % (os.path.relpath(args.output), results["wall_s"]))
    if args.results_md:
        atomic_write(args.results_md, results_markdown(results, table.getvalue()))
        print("bench: wrote %s" % os.path.relpath(args.results_md))


def results_markdown(results, table):
    """docs/overhead-results.md: the table for people, under a line saying it is generated,
    when, and on what."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return ("# Overhead results, generated by `make bench` on %s\n\n"
            "Written by `bench/bench.py` (`sudo make bench`), not by hand: kernel %s, %d CPUs, "
            "%d throughput repetitions and %d bpf_stats repetitions per configuration, %.0f s "
            "in all.  What each column means, and how it is measured: "
            "[overhead.md](overhead.md).\n\n```\n%s\n```\n" % (
                when, results["kernel"], results["cpus"], results["reps"],
                results["stats_reps"], results["wall_s"], table.strip("\n")))


def targets(results):
    """The cost-of-watching targets, from the figures of this one run: each with its value,
    its limit and whether it is met.  A figure this run did not measure gives no target."""
    out = []

    def med(w, c, m):
        try:
            return results["workloads"][w]["configs"][c][m]["median"]
        except (KeyError, TypeError):
            return None

    def add(name, what, value, limit):
        if value is not None and limit is not None:
            out.append({"name": name, "what": what, "value": value, "limit": limit,
                        "met": value <= limit})

    add("cachewalk_ratio", "cachewalk traced / untraced, µs per unit (≤ 1.03)",
        med("cachewalk", "migtrace", "ratio"), 1.03)
    # The per-event targets on all of each tool's cost (pass 4, bracketed), then on its
    # program's run time alone (pass 2, bpf_stats), which leaves out bpftrace's filling of
    # the classic tracepoint's record.
    for how, pre, post in (("bracketed", "full_", ""), ("bpf_stats", "", "_bpf_stats")):
        for w in ("pipe-pinned", "hackbench"):
            add(w + "_ns_per_switch" + post, "%s: net ns per switch ≤ bpftrace-count's, %s" % (
                w, how), med(w, "migtrace", pre + "ns_per_switch_net"),
                med(w, "bpftrace-count", pre + "ns_per_switch_net"))
            add(w + "_filtered_ns_per_switch" + post,
                "%s: a task not traced, net ns per switch ≤ 25, %s" % (w, how),
                med(w, "migtrace-other", pre + "ns_per_switch_net"), 25.0)
        bc = med("hackbench", "bpftrace-count", pre + "ns_per_migrate_net")
        add("hackbench_ns_per_migration" + post,
            "hackbench: net ns per migration ≤ 2 x bpftrace-count's, %s" % how,
            med("hackbench", "migtrace", pre + "ns_per_migrate_net"),
            2 * bc if bc is not None else None)
    add("pipe_pinned_ratio", "pinned pipe time ratio ≤ bpftrace-count's",
        med("pipe-pinned", "migtrace", "ratio"), med("pipe-pinned", "bpftrace-count", "ratio"))
    cal = results.get("calibrate") or {}
    if len(cal.get("hot_time_robust_ns", [])) >= 3:	# a CV of one or two runs says nothing
        add("calibrate_cv", "calibrate 2 CPUs: hot time CV over %d runs ≤ 10 %%" % len(
            cal["hot_time_robust_ns"]), cal.get("hot_time_robust_cv_pct"), 10.0)
    sw = results.get("syswide")
    for key, r in (sw or {}).get("ratios", {}).items():
        add("syswide_%s_ratio" % key, "system-wide: per-%s cost (bracketed, all-in) / %s's "
            "≤ %s" % ("switch" if key == "switch" else "migration", r["against"],
                      fmt(r["limit"], 0)),
            (r["ratio"] or {}).get("median"), r["limit"])
    rep = results.get("report")
    if rep:
        add("report_rss", "report of a %.1f M-record run file, the text: peak RSS ≤ %.0f MiB" % (
            rep["records"] / 1e6, REPORT_RSS_LIMIT_MIB), rep["text"]["rss_kib"] / 1024.0,
            REPORT_RSS_LIMIT_MIB)
    return out


def report_only():
    """--report-only: the report pass alone, its lines and its target."""
    if not os.access(MIGTRACE, os.X_OK):
        raise BenchError("%s is missing: run `make`" % MIGTRACE)
    tmp = tempfile.mkdtemp(prefix="migtrace-bench.")
    try:
        rep = report_bench(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lines = report_lines(rep)
    for t in targets({"report": rep}):
        lines.append("bench: target %s %s %s" % (t["name"], "met" if t["met"] else "missed",
                                                   fmt(t["value"], 3)))
        print("%s %s: %s MiB (limit %s)" % ("met" if t["met"] else "MISSED", t["what"],
                                            fmt(t["value"], 1), fmt(t["limit"], 0)))
    for line in lines:
        print(line)


def print_backends(results, workloads):
    """The backends side by side: the workload's time under migtrace on BPF, on ftrace and
    under perf sched record, over its time untraced (the throughput pass, paired per
    repetition), and the ns each adds to a sched_switch and to a migration (the bracketed
    pass: inside the bracket minus the bracket alone); median / min of the repetitions.
    The bracket holds the tracepoint probes only: ftrace's set_event_pid filter probes
    (registered first and last on sched_switch) and every reader's user-space work are
    outside it, inside the time ratio."""
    print("\nbackends side by side: time traced / untraced (paired per repetition); ns added "
          "per event,\nall of it (bracketed, minus the bracket alone); median / min:")
    print("  %-12s %-18s %17s %17s %17s %12s" % ("workload", "config", "time ratio",
                                                 "ns/switch", "ns/migration", "lost (med)"))
    for w in workloads:
        wr = results["workloads"][w]
        for c, label in BACKEND_ROWS:
            fig = wr["configs"].get(c)
            if not fig:
                continue

            def mm(m, digits):
                f = fig.get(m)
                return "%s / %s" % (fmt(f["median"], digits), fmt(f["min"], digits)) if f else "-"
            if c == "none":
                ratio = "%s %s" % (fmt((fig.get("figure") or {}).get("median"), 3), wr["unit"])
            else:
                ratio = mm("ratio", 3)
            # records or events the tool could not keep (migtrace: records_lost and, on
            # ftrace, the ring's overruns; perf: its "lost" lines)
            lost = (fig.get("dropped") or {}).get("median") if c != "none" else None
            print("  %-12s %-18s %17s %17s %17s %12s" % (
                w, label, ratio, mm("full_ns_per_switch", 0), mm("full_ns_per_migrate", 0),
                fmt(lost, 0)))


def print_table(results, workloads):
    cols = ("ratio med", "ratio min", "ns/sw", "net", "ns/mig", "net", "cpu %", "tracing",
            "RSS KiB", "written", "dropped")
    print("\nmigtrace bench: %d throughput reps (bpf_stats off), %d bpf_stats reps; "
          "kernel %s, %d CPUs" % (results["reps"], results["stats_reps"],
                                  results["kernel"], results["cpus"]))
    print("ratio: the workload's time traced / untraced, paired per repetition (1.00 = free)"
          "; ns: bpf_stats per run, net = minus bpf-empty;\ncpu %: migtrace's CPU (user + system) / the workload's, tracing: without the one-off load "
          "and attach")
    for w in workloads:
        wr = results["workloads"][w]
        none = wr["configs"].get("none", {}).get("figure") or {}
        print("\n%s: %s (none: median %s %s; %s throughput reps)" % (
            w, wr["command"].replace(ROOT + "/", ""), fmt(none.get("median"), 3), wr["unit"],
            none.get("n", 0)))
        print("  %-15s" % "config" + "".join("%11s" % c for c in cols))
        for c, fig in wr["configs"].items():
            def g(m, k="median"):
                return fig[m][k] if m in fig and fig[m] else None
            row = [g("ratio"), g("ratio", "min"), g("ns_per_switch"), g("ns_per_switch_net"),
                   g("ns_per_migrate"), g("ns_per_migrate_net"), g("user_cpu_pct"),
                   g("user_cpu_pct_tracing"), g("rss_kib"), g("bytes_written"), g("dropped")]
            digits = [3, 3, 1, 1, 1, 1, 2, 2, 0, 0, 0]
            print("  %-15s" % c + "".join("%11s" % fmt(v, d) for v, d in zip(row, digits)))
    print_backends(results, workloads)
    print("\nper-event cost, all of it (bracketed: each tool between two probes on the same "
          "tracepoint; median ns,\nminus the bracket alone; net: minus bpf-empty):")
    hdr = ("ns/sw", "net", "ns/mig", "net")
    for w in workloads:
        print("  %-38s" % w + "".join("%10s" % h for h in hdr))
        for c, fig in results["workloads"][w]["configs"].items():
            if "full_ns_per_switch" not in fig:
                continue
            vals = [fig.get(m) or {} for m in ("full_ns_per_switch", "full_ns_per_switch_net",
                                               "full_ns_per_migrate", "full_ns_per_migrate_net")]
            print("    %-36s" % c + "".join("%10s" % fmt(v.get("median"), 1) for v in vals))
    if results.get("scaling"):
        print("\nper-event cost as the tasks grow (bpf_stats, net of bpf-empty; median ns):")
        print("  %-38s" % "workload" + "".join("%16s" % h for h in (
            "migtrace ns/sw", "count ns/sw", "migtrace ns/mig", "count ns/mig")))
        for w, wr in results["scaling"].items():
            def n(c, m):
                f = wr["configs"].get(c, {}).get(m)
                return f["median"] if f else None
            print("  %-38s" % wr["command"] + "".join("%16s" % fmt(v, 1) for v in (
                n("migtrace", "ns_per_switch_net"), n("bpftrace-count", "ns_per_switch_net"),
                n("migtrace", "ns_per_migrate_net"), n("bpftrace-count", "ns_per_migrate_net"))))
    if results.get("syswide"):
        print_syswide(results["syswide"])
    if results.get("targets"):
        print("\ntargets:")
        for t in results["targets"]:
            over = t["value"] - t["limit"]
            print("  %-6s %-58s %10s (limit %s%s)" % (
                "met" if t["met"] else "MISSED", t["what"], fmt(t["value"], 3),
                fmt(t["limit"], 3), "" if t["met"] else ", over by %s" % fmt(over, 3)))
    cal = results["calibrate"]
    if not cal:
        return
    print("\ncalibrate --cpus 0,1 (defaults), %d runs: median %.3f s; hot time (undisturbed median x 6) "
          "%s µs, CV %.1f %%; the seed's rule (max of 20 x 6) %s µs, CV %.1f %%" % (
              len(cal["hot_time_ns"]), cal["seconds"],
              "/".join("%.0f" % (h / 1000) for h in cal["hot_time_robust_ns"]),
              cal["hot_time_robust_cv_pct"],
              "/".join("%.0f" % (h / 1000) for h in cal["hot_time_ns"]),
              cal["hot_time_cv_pct"]))


if __name__ == "__main__":
    try:
        main()
    except BenchError as e:
        print("bench: " + str(e), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("bench: interrupted; nothing written", file=sys.stderr)
        sys.exit(130)
