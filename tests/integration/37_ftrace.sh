#!/usr/bin/env bash
# run --backend ftrace: the live ftrace backend against the BPF one on the same workloads.
# The same sections; one process traced by both at once gives the same migrations (count,
# CPUs, ages within AGE_TOL_NS) and the kernel's count; the tracefs instances are gone after
# a normal end, SIGINT and SIGKILL; --unit through uprobe_events; --cgroup is refused; auto
# falls back without CAP_BPF.
source "$(dirname "$0")/../lib.sh"

# Ages of the same move as the two backends stamp it: BPF's bpf_ktime_get_ns() in its program,
# ftrace's "mono" clock in its probe on the same tracepoint, an interrupt or a preempted vCPU
# apart.  Measured on the 2-vCPU host (6.18, other tests running): 164 matched moves over 7
# runs of wakeup -t 4 -d 2, |difference| p50 1.2 us, p90 4.2 us, p99 23.9 us, max 28.6 us.
AGE_TOL_NS=50000

need_bpf_pair ftrace_sections || exit 0
if [ ! -d /sys/kernel/tracing/instances ] && ! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	skip ftrace_sections "tracefs is not mounted at /sys/kernel/tracing and cannot be"
	exit 0
fi
instances() { ls /sys/kernel/tracing/instances 2>/dev/null | grep -E '^migtrace-[0-9]+(-mig)?$'; }
# no_instance_of PID: no instance of the migtrace with that pid (the guard may take 0.5 s)
no_instance_of() {
	for _ in $(seq 30); do
		instances | grep -qE "^migtrace-$1(-mig)?$" || return 0
		sleep 0.1
	done
	echo "left: $(instances | tr '\n' ' ')"
	return 1
}
# sections FILE: the run text's section names (a line's start up to its first , ( or :)
sections() {
	grep -E '^[a-z]' "$1" | grep -vE '^(wakeup|Backend)' | sed -E 's/[,(:].*//; s/[0-9]+//g' | sort -u
}

# 1. The same sections as the BPF run, the backend said; nothing left behind.
"$MT" run --backend bpf wakeup -t 4 -d 2 >"$MT_TMP/bpf.txt" 2>&1
"$MT" run --backend ftrace wakeup -t 4 -d 2 >"$MT_TMP/ft.txt" 2>&1 &
ftpid=$!
wait "$ftpid"
rc=$?
check ftrace_run_exit0 test "$rc" = 0
check ftrace_sections diff <(sections "$MT_TMP/bpf.txt") <(sections "$MT_TMP/ft.txt")
check ftrace_says_backend grep -q '^Backend: ftrace (--backend ftrace); scheduler events replayed' "$MT_TMP/ft.txt"
check ftrace_lost_shown grep -qE '^data quality: [0-9]+ events replayed, .*, [0-9]+ lost by the trace.s buffers' "$MT_TMP/ft.txt"
check ftrace_no_instance_after_end no_instance_of "$ftpid"
# rings of 8 KiB a CPU read every 500 ms under -a and 8 busy threads lose events: counted
# and said (read every 10 ms, a quiet machine's rings kept up: 44435 events, none lost)
"$MT_ROOT/.output/workloads/wakeup" -t 8 -d 4 >/dev/null 2>&1 &
busy=$!
mkdir -p "$MT_TMP/tf"
MIGTRACE_FTRACE_KIB=8 MIGTRACE_FTRACE_READ_MS=500 "$MT" run --backend ftrace -a -d 2 \
	--interval 1s -j --textfile "$MT_TMP/tf" -o "$MT_TMP/lost.json" >"$MT_TMP/lost.txt" 2>&1
wait "$busy"
check ftrace_lost_counted json "$MT_TMP/lost.json" "d['meta']['backend']['lost_events'] > 0" "d['meta']['backend']"
check ftrace_lost_said grep -qE '^data quality: [0-9]+ events replayed, .*, [1-9][0-9]* lost by the trace.s buffers' "$MT_TMP/lost.txt"
# ... and exported: the textfile (written at each interval and at the end), --openmetrics of
# the file and the interval lines carry the run's count (they said 0 lost before)
lost=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["meta"]["backend"]["lost_events"])' "$MT_TMP/lost.json" 2>/dev/null)
check ftrace_lost_textfile grep -qx "migtrace_trace_events_lost_total{backend=\"ftrace\"} ${lost:-x}" "$MT_TMP/tf/migtrace.prom"
check ftrace_lost_openmetrics bash -c '"$1" report --openmetrics "$4" "$2" >/dev/null &&
	grep -qx "migtrace_trace_events_lost_total{backend=\"ftrace\"} $3" "$4"' _ "$MT" \
	"$MT_TMP/lost.json" "${lost:-x}" "$MT_TMP/lost.prom"
check ftrace_lost_interval_lines python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert lines and all(l["trace_events_lost"] is not None for l in lines), lines[:1]
assert lines[-1]["trace_events_lost"] > 0, [l["trace_events_lost"] for l in lines]' "$MT_TMP/lost.txt"

# 2. One process traced by both at once, from before it starts (sh waits 1.5 s, runs it, then
#    sleeps 0.5 s, so that both runs end with nothing moving): selfmig's 23 moves by a helper
#    thread while it sleeps (moved at its wake-up, run by the waker or the idle task: the pid
#    filter's pitfall), and wakeup's balancer and wake-up moves.  Fork placements have no
#    sched_migrate_task (wake_up_new_task), and the kernel's count leaves them out.
cross() {	# cross TAG CMD...
	local tag=$1 w a
	shift
	sh -c 'sleep 1.5; "$@"; sleep 0.5' sh "$@" >"$MT_TMP/$tag.out" 2>&1 &
	w=$!
	"$MT" run --backend bpf -p "$w" -o "$MT_TMP/$tag.bpf.json" >"$MT_TMP/$tag.bpf.txt" 2>&1 &
	a=$!
	"$MT" run --backend ftrace -p "$w" -o "$MT_TMP/$tag.ft.json" >"$MT_TMP/$tag.ft.txt" 2>&1
	wait "$a"
	wait "$w"
}
compare() {	# compare TAG: counts, then the same moves' CPUs and ages
	python3 - "$MT_TMP/$1.bpf.json" "$MT_TMP/$1.ft.json" "$AGE_TOL_NS" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
tol = int(sys.argv[3])
def nofork(d):
    return d["stats"]["migrations"] - d["stats"]["by_cause"]["fork"]
kernel = a["stats"]["completeness"]["kernel_counted"]
assert nofork(a) - a["stats"]["by_cause"]["unseen"] <= kernel <= nofork(a), ("bpf", nofork(a), kernel)
assert b["stats"]["migrations"] == a["stats"]["migrations"], ("ftrace", b["stats"]["by_cause"], "bpf", a["stats"]["by_cause"])
assert nofork(b) == kernel, ("ftrace", nofork(b), "bpf kernel count", kernel)
ma = [m for m in a["migrations"] if m["cause"] not in ("fork", "unseen")]
mb = list(b["migrations"])
# Stamped within 50 us, ages within tol; a move whose two stamps (and so ages) are further
# apart, up to 1 ms, is the host having stopped the vCPU between the tracepoint's two
# callbacks: at most 1 % of the moves, or 1, as the matrix allows (docs/testing.md, "No
# flakes"; one of selfmig's 23, woken by the idle task, beside stress-ng --cpu 1).
used, worst, stalled = set(), 0, []
for m in ma:
    near = [j for j, n in enumerate(mb) if j not in used and n["pid"] == m["pid"]
            and abs(n["ts_ns"] - m["ts_ns"]) <= 1000000]
    assert near, ("no ftrace move within 1 ms of", m)
    j = min(near, key=lambda j: abs(mb[j]["ts_ns"] - m["ts_ns"]))
    used.add(j)
    n = mb[j]
    assert (n["src_cpu"], n["dst_cpu"]) == (m["src_cpu"], m["dst_cpu"]), (m, n)
    gap = abs(n["age_ns"] - m["age_ns"]) if m["age_ns"] and m["state"] != "running" else 0
    if abs(n["ts_ns"] - m["ts_ns"]) > 50000 or gap > tol:
        stalled.append((abs(n["ts_ns"] - m["ts_ns"]), gap))
    else:
        worst = max(worst, gap)
assert len(stalled) <= max(1, len(ma) // 100), ("stamps or ages apart (ns)", stalled)
print("ok: %d moves, kernel %d, ages within %d ns; %d stalled (stamps, ages apart in ns: %s)"
      % (len(ma), kernel, worst, len(stalled), stalled))
PY
}
cross selfmig "$MT_PROGS/selfmig" sleeping 23 5
# the 23 moves selfmig made, in order
check ftrace_selfmig_23 python3 - "$MT_TMP/selfmig.ft.json" "$MT_TMP/selfmig.out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
pid = int(re.search(r"^selfmig sleeping pid (\d+)", out, re.M).group(1))
made = [tuple(map(int, l.split()[2:4])) for l in out.splitlines() if l.startswith("move ")]
seen = [(m["src_cpu"], m["dst_cpu"]) for m in d["migrations"] if m["pid"] == pid]
assert len(made) == 23 and seen[-23:] == made, (made, seen)
PY
check ftrace_selfmig_same_as_bpf compare selfmig
cross wakeup "$MT_ROOT/.output/workloads/wakeup" -t 4 -d 2
check ftrace_wakeup_same_as_bpf compare wakeup

# 3. SIGINT and SIGKILL of migtrace: the instances go (SIGKILL: by the guard).
"$MT" run --backend ftrace wakeup -t 2 -d 10 >"$MT_TMP/int.txt" 2>&1 &
mtpid=$!
wait_for "$MT_TMP/int.txt" '^Tracing'
kill -INT "$mtpid"
wait "$mtpid"
check ftrace_no_instance_after_sigint no_instance_of "$mtpid"
"$MT" run --backend ftrace wakeup -t 2 -d 10 >"$MT_TMP/kill.txt" 2>&1 &
mtpid=$!
wait_for "$MT_TMP/kill.txt" '^Tracing'
check ftrace_instance_while_running bash -c 'ls /sys/kernel/tracing/instances | grep -qx "migtrace-$1"' _ "$mtpid"
kill -KILL "$mtpid"
wait "$mtpid" 2>/dev/null
check ftrace_no_instance_after_sigkill no_instance_of "$mtpid"
wpid=$(sed -n 's/^Tracing.*(pid \([0-9]*\)).*/\1/p' "$MT_TMP/kill.txt")
check ftrace_workload_gone_after_sigkill bash -c 'for _ in $(seq 20); do [ -d "/proc/$1" ] || exit 0; sleep 0.1; done; exit 1' _ "${wpid:-0}"

# 4. --unit through uprobe_events: units timed and joined, the probes gone after the run and
#    after SIGKILL (the guard removes them once the instances are gone).
cw="$MT_ROOT/.output/workloads/cachewalk"
"$MT" run --backend ftrace --unit "$cw:cachewalk_unit" -o "$MT_TMP/unit.json" \
	cachewalk --threads 3 --load 2 --sleep exp:1000 --duration 2 >"$MT_TMP/unit.txt" 2>&1
check ftrace_unit_timed json "$MT_TMP/unit.json" \
	"d['stats']['units'] > 1000 and d['stats']['units'] == len(d['units']) and d['correlation']['mode'] == 'natural'" \
	"(d['stats'], d.get('correlation', {}).get('mode'))"
# the probe cost timed with ftrace's own probes (uprobe_events), not BPF's
check ftrace_unit_probe_cost json "$MT_TMP/unit.json" \
	"d['meta']['unit_probe_cost_ns'] is not None and d['meta']['unit_probe_cost_ns'] > 0" \
	"d['meta']['unit_probe_cost_ns']"
check ftrace_unit_joined json "$MT_TMP/unit.json" \
	"(lambda pids: sum(u['migs_before'] + u['migs_during'] for u in d['units']) <= sum(1 for m in d['migrations'] if m['pid'] in pids))({u['pid'] for u in d['units']})"
"$MT" run --backend ftrace --unit "$cw:cachewalk_unit" cachewalk --threads 2 --duration 10 >"$MT_TMP/ukill.txt" 2>&1 &
mtpid=$!
wait_for "$MT_TMP/ukill.txt" '^Tracing'
sleep 0.5
check ftrace_unit_probes_while_running grep -q "^p:migtrace_$mtpid/unit_entry " /sys/kernel/tracing/uprobe_events
kill -KILL "$mtpid"
wait "$mtpid" 2>/dev/null
check ftrace_no_instance_after_unit_sigkill no_instance_of "$mtpid"
check ftrace_no_probes_after_sigkill bash -c 'for _ in $(seq 30); do grep -q "migtrace_$1/" /sys/kernel/tracing/uprobe_events || exit 0; sleep 0.1; done; exit 1' _ "$mtpid"

# 5. Bad command lines: one line, exit 2, nothing started.
out=$("$MT" run --backend ftrace --cgroup /sys/fs/cgroup 2>&1)
rc=$?
check ftrace_cgroup_refused bash -c '[ "$1" = 2 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -q "cgroup needs --backend bpf" <<<"$2"' _ "$rc" "$out"
out=$("$MT" run --backend perf wakeup 2>&1)
check ftrace_backend_name_refused bash -c '[ "$1" = 2 ] && grep -q "is not bpf, ftrace or auto" <<<"$2"' _ "$?" "$out"
# tracefs that cannot be mounted: every tracefs and debugfs mount gone in a mount namespace,
# and no CAP_SYS_ADMIN to mount one again
out=$(unshare -m sh -c 'for m in $(awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }" /proc/mounts | sort -r); do umount -l "$m"; done
	exec setpriv --inh-caps=-all --bounding-set=-bpf,-sys_admin,-perfmon "$1" run --backend ftrace wakeup -t 2 -d 1' _ "$MT" 2>&1)
check ftrace_unmountable_refused bash -c '[ "$1" = 2 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -q "tracefs is not mounted and could not be mounted" <<<"$2"' _ "$?" "$out"

# 6. auto without CAP_BPF, CAP_SYS_ADMIN and CAP_PERFMON (uid 0 keeps tracefs writable):
#    ftrace, and the run says why.
if command -v setpriv >/dev/null && setpriv --bounding-set=-bpf,-sys_admin,-perfmon true 2>/dev/null; then
	setpriv --inh-caps=-all --bounding-set=-bpf,-sys_admin,-perfmon \
		"$MT" run -o "$MT_TMP/auto.json" wakeup -t 2 -d 1 >"$MT_TMP/auto.txt" 2>&1
	rc=$?
	check ftrace_auto_fallback_exit0 test "$rc" = 0
	check ftrace_auto_says_why grep -qE '^Backend: ftrace \(auto: BPF unavailable: migtrace lacks CAP_BPF' "$MT_TMP/auto.txt"
	check ftrace_auto_recorded json "$MT_TMP/auto.json" \
		"d['meta']['backend']['name'] == 'ftrace' and d['meta']['backend']['replayed'] and d['stats']['switches_in'] > 100" \
		"(d['meta']['backend'], d['stats']['switches_in'])"
	out=$(setpriv --inh-caps=-all --bounding-set=-bpf,-sys_admin,-perfmon "$MT" doctor 2>&1)
	rc=$?
	check ftrace_doctor_ftrace_only bash -c '[ "$1" = 0 ] && grep -qE "^ok +ftrace backend " <<<"$2" &&
		grep -q "^migtrace run can work here with the ftrace backend only (auto takes it)" <<<"$2"' _ "$rc" "$out"
else
	skip ftrace_auto_fallback_exit0 "setpriv cannot drop CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON here"
fi

# 6. A SIGKILL of migtrace's whole process group (kill -9 -PGID, timeout -s KILL): the guard,
#    in a session of its own, outlives it and removes the instances and --unit's uprobes
#    (before, it died with the group and they stayed, recording).  And what a kill of run
#    and guard at once leaves (systemd's final kill of a cgroup), a run whose pid is no
#    migtrace's: the next ftrace run removes it, saying so, and doctor names it.
rm -f "$MT_TMP/grp.pid"
setsid bash -c '"$1" run --backend ftrace --unit "$3:cachewalk_unit" cachewalk --threads 2 \
	--duration 30 >/dev/null 2>&1 & echo $! >"$2"; sleep 30' _ "$MT" "$MT_TMP/grp.pid" "$cw" &
grp=$!
wait_for "$MT_TMP/grp.pid" '[0-9]' 10
gpid=$(cat "$MT_TMP/grp.pid" 2>/dev/null)
wait_until 10 bash -c 'ls /sys/kernel/tracing/instances | grep -qx "migtrace-$1" &&
	grep -q "^p:migtrace_$1/unit_entry " /sys/kernel/tracing/uprobe_events' _ "${gpid:-x}"
kill -9 -- "-$grp" 2>/dev/null
wait "$grp" 2>/dev/null
check ftrace_group_kill_cleaned no_instance_of "${gpid:-x}"
check ftrace_group_kill_probes_cleaned bash -c 'for _ in $(seq 30); do
	grep -q "migtrace_$1/" /sys/kernel/tracing/uprobe_events || exit 0; sleep 0.1; done
	grep "migtrace_$1/" /sys/kernel/tracing/uprobe_events; exit 1' _ "${gpid:-x}"
# --keep-trace: the backend's raw capture as a trace-cmd file.  trace-cmd report reads it and
# finds the run's moves, fork placements aside (the replay infers them from sched_wakeup_new:
# no sched_migrate_task fires for them); migtrace report reads it as a capture and finds them
# too; --backend bpf and a directory that cannot be written are refused before anything runs.
"$MT" run --keep-trace "$MT_TMP/kept.dat" -o "$MT_TMP/kept.json" wakeup -t 4 -d 1 \
	>"$MT_TMP/kept.out" 2>"$MT_TMP/kept.err"
check keep_trace_written bash -c '[ -s "$1" ] && grep -q "^migtrace: kept the capture in $1 (" "$2" &&
	grep -q "^Backend: ftrace" "$3"' _ "$MT_TMP/kept.dat" "$MT_TMP/kept.err" "$MT_TMP/kept.out"
trace-cmd report "$MT_TMP/kept.dat" >"$MT_TMP/kept.report" 2>"$MT_TMP/kept.report.err"
"$MT" report -o "$MT_TMP/kept.reread.json" "$MT_TMP/kept.dat" >"$MT_TMP/kept.reread.txt" 2>&1
check keep_trace_counts python3 - "$MT_TMP/kept.json" "$MT_TMP/kept.report" \
	"$MT_TMP/kept.reread.json" <<'PY'
import json, re, sys
# the capture holds every task's moves (the unfiltered instance), the launched workload's
# before its exec too; the run traces it from its exec: the moves compared are those after
# each task's first exec in the capture, if it has one
run = json.load(open(sys.argv[1]))
moves = [(m["pid"], m["src_cpu"], m["dst_cpu"]) for m in run["migrations"] if m["cause"] != "fork"]
pids = {p for p, _, _ in moves}
events, exec_ns = [], {}
for line in open(sys.argv[2]):
    t = re.search(r"\] +(\d+)\.(\d{6}): ", line)
    if not t:
        continue
    ns = int(t.group(1)) * 10**9 + int(t.group(2)) * 1000
    m = re.search(r"sched_migrate_task: .*pid=(\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+)", line)
    if m and m.group(2) != m.group(3) and int(m.group(1)) in pids:
        events.append((ns, int(m.group(1)), int(m.group(2)), int(m.group(3))))
    e = re.search(r"sched_process_exec: .*pid=(\d+) ", line)
    if e:
        exec_ns.setdefault(int(e.group(1)), ns)
seen = [(p, s, d) for ns, p, s, d in events if ns >= exec_ns.get(p, 0)]
again = [(m["pid"], m["src_cpu"], m["dst_cpu"]) for m in json.load(open(sys.argv[3]))["migrations"]
         if m["pid"] in pids and m["cause"] != "fork" and m["ts_ns"] >= exec_ns.get(m["pid"], 0) - 1000]
print("FIG run %d moves of %d tasks; trace-cmd report %d (%d before their exec); migtrace report %d"
      % (len(moves), len(pids), len(seen), len(events) - len(seen), len(again)))
sys.exit(0 if moves and sorted(moves) == sorted(seen) == sorted(again) else 1)
PY
"$MT" run --backend bpf --keep-trace "$MT_TMP/no.dat" -- true >"$MT_TMP/kb.out" 2>&1
check keep_trace_not_bpf bash -c '[ "$1" = 2 ] && [ ! -e "$2" ] &&
	grep -q "keep-trace keeps the ftrace backend.s capture: not with --backend bpf" "$3"' \
	_ "$?" "$MT_TMP/no.dat" "$MT_TMP/kb.out"
"$MT" run --keep-trace "$MT_TMP/none/x.dat" -- true >"$MT_TMP/kd.out" 2>&1
check keep_trace_bad_dir bash -c '[ "$1" = 2 ] && grep -q "keep-trace" "$2"' _ "$?" "$MT_TMP/kd.out"

# an orphan: an instance named for a pid that is no migtrace, recording sched_switch
true &
dead=$!
wait "$dead"
orphan=/sys/kernel/tracing/instances/migtrace-$dead
if mkdir "$orphan" 2>/dev/null; then
	echo 1 >"$orphan/events/sched/sched_switch/enable"
	"$MT" run --backend ftrace -- true >"$MT_TMP/orphan.out" 2>&1
	check ftrace_orphan_removed bash -c '[ ! -d "$1" ] &&
		grep -q "removed 1 tracefs instance left recording by migtrace runs killed with their guard: migtrace-$2\$" "$3"' \
		_ "$orphan" "$dead" "$MT_TMP/orphan.out"
	mkdir "$orphan" && echo 1 >"$orphan/events/sched/sched_switch/enable"
	"$MT" doctor >"$MT_TMP/orphan_doctor.out" 2>&1
	check ftrace_orphan_doctor bash -c '[ ! -d "$1" ] &&
		grep -qE "^limited +ftrace orphans +1 tracefs instance left recording .*: migtrace-$2\$" "$3"' \
		_ "$orphan" "$dead" "$MT_TMP/orphan_doctor.out"
	rmdir "$orphan" 2>/dev/null
else
	fail ftrace_orphan_removed "cannot make $orphan"
fi
