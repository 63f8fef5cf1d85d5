#!/usr/bin/env bash
# migtrace run: real BPF, real workloads, checked against what they did.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair run_tests || exit 0

# 1. K = 23 moves of a sleeping task by another thread: affinity, waking, aged ~its sleep.
#    This kernel now and then moves the sleeping task without a sched_migrate_task event
#    (2 runs in 80; bpftrace on the tracepoint then sees 22 too), or the program misses it
#    (already running on that CPU, from a hard IRQ) and the switch-in finds it, unseen: a
#    fresh-clone run had one such move of 23; measure again, up to 3 times.
for attempt in 1 2 3; do
	"$MT" run --cpus 0,1 -o "$MT_TMP/sleep.json" -- "$MT_PROGS/selfmig" sleeping 23 5 >"$MT_TMP/sleep.out" 2>&1
	rc=$?
	pid=$(sed -n 's/^selfmig sleeping pid \([0-9]*\) .*/\1/p' "$MT_TMP/sleep.out")
	json "$MT_TMP/sleep.json" "len([m for m in d['migrations'] if m['pid'] == $pid and m['cause'] != 'unseen']) == 23" \
		>/dev/null 2>&1 && break
done
check selfmig_sleeping_exit0 test "$rc" = 0
pid=$(sed -n 's/^selfmig sleeping pid \([0-9]*\) .*/\1/p' "$MT_TMP/sleep.out")
check selfmig_sleeping_23 json "$MT_TMP/sleep.json" \
	"len([m for m in d['migrations'] if m['pid'] == $pid]) == 23" \
	"([(m['pid'], m['cause'], m['state'], m['src_cpu'], m['dst_cpu'], m['age_ns']) for m in d['migrations']], d['stats'], open('$MT_TMP/sleep.out').read()[-900:])"
# moved at its wakeup (waking), or by the helper itself if the sleep ended first (queued);
# running (the stopper moved it) only where selfmig saw the thread awake at the move: a
# stalled vCPU kept it on its CPU past half its sleep (main_state R), or the move was late
check selfmig_sleeping_cause python3 - "$MT_TMP/sleep.json" "$MT_TMP/sleep.out" "$pid" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
moves = [l.split() for l in open(sys.argv[2]) if l.startswith("move ")]
migs = [m for m in d["migrations"] if m["pid"] == int(sys.argv[3])]
odd = []
for i, m in enumerate(migs):
    mv = moves[i] if i < len(moves) else []
    awake = len(mv) > 12 and (mv[10] == "1" or mv[12] != "S")
    if m["cause"] != "affinity" or m["state"] not in ("waking", "queued") + (("running",) if awake else ()):
        odd.append((i, m["cause"], m["state"], m["age_ns"], m["by_comm"], " ".join(mv[7:])))
assert migs and not odd, odd
print("ok")
PY
python3 - "$MT_TMP/sleep.json" "$MT_TMP/sleep.out" "$pid" >"$MT_TMP/sleep.check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pid = int(sys.argv[3])
moves = [l.split() for l in open(sys.argv[2]) if l.startswith("move ")]
migs = [m for m in d["migrations"] if m["pid"] == pid]
assert len(moves) == 23 and len(migs) == 23, (len(moves), len(migs))
for mv, m in zip(moves, migs):
    src, dst, sleep_ns, slept_ns, late = int(mv[2]), int(mv[3]), int(mv[4]), int(mv[8]), mv[10] == "1"
    assert (m["src_cpu"], m["dst_cpu"]) == (src, dst), (mv, m)
    # moved at its wakeup: off CPU for the whole sleep, and no longer than the sleep call
    # really took (the host can wake it late: 3 ms over was seen); when the host held the
    # helper past the sleep, the move came in the short wait after it instead; and when
    # selfmig saw the thread awake at the move (main_state R), it had not slept yet
    if not late and mv[12] == "S":
        assert 0.95 * sleep_ns <= m["age_ns"] <= slept_ns + 500_000, (sleep_ns, slept_ns, m["age_ns"])
assert sum(mv[10] == "1" or mv[12] != "S" for mv in moves) <= 3, "most moves must come in the sleep"
print("ok")
PY
check selfmig_sleeping_src_dst_ages grep -qx ok "$MT_TMP/sleep.check"
[ -s "$MT_TMP/sleep.check" ] && ! grep -qx ok "$MT_TMP/sleep.check" && cat "$MT_TMP/sleep.check"
check no_programs_after_run no_programs_left

# 2. The same while running: the thread blocks in sched_setaffinity until the stopper has
#    moved it, and the stopper's wake-up places it on the new CPU: aged a few µs.
foreign_before
"$MT" run --cpus 0,1 -o "$MT_TMP/run.json" -- "$MT_PROGS/selfmig" running 23 1 >"$MT_TMP/run.out" 2>&1
pid=$(sed -n 's/^selfmig running pid \([0-9]*\) .*/\1/p' "$MT_TMP/run.out")
# Aged by the stopper's wake-up, not by the 1 ms sleeps between moves: each under 1 ms (the
# host can hold the stopper's vCPU: 348 µs was seen), the median under 100 µs.  Beside a
# CPU-bound process the woken thread waits for a CPU (moved queued, 1-3 ms old): gated.
odd="[(m['cause'], m['state'], m['age_ns'], m['by_comm']) for m in d['migrations'] if m['pid'] == $pid and not (m['cause'] == 'affinity' and m['state'] == 'waking' and m['age_ns'] < 1_000_000 and m['by_comm'].startswith('migration/'))]"
ages="sorted(m['age_ns'] for m in d['migrations'] if m['pid'] == $pid)"
check selfmig_running_23 json "$MT_TMP/run.json" \
	"len([m for m in d['migrations'] if m['pid'] == $pid]) == 23" \
	"(len([m for m in d['migrations'] if m['pid'] == $pid]), $odd)"
check_needs_idle selfmig_running_cause_age json "$MT_TMP/run.json" "not $odd and $ages[len($ages) // 2] < 100_000" "($odd, $ages)"
check selfmig_src_dst_alternate json "$MT_TMP/run.json" \
	"(lambda ms: all(a['dst_cpu'] == b['src_cpu'] and a['src_cpu'] != a['dst_cpu'] for a, b in zip(ms, ms[1:])))([m for m in d['migrations'] if m['pid'] == $pid])"

# 3. Another process migrating at the same time is not counted; threads and children are.
"$MT_PROGS/selfmig" running 30 1 >"$MT_TMP/other.out" 2>&1 &
other=$!
"$MT" run --cpus 0,1 -o "$MT_TMP/fam.json" -- "$MT_PROGS/family" 5 7 >"$MT_TMP/fam.out" 2>&1
wait "$other"
opid=$(sed -n 's/^selfmig running pid \([0-9]*\) .*/\1/p' "$MT_TMP/other.out")
tid=$(awk '/^thread/ {print $2}' "$MT_TMP/fam.out")
cpid=$(awk '/^child/ {print $2}' "$MT_TMP/fam.out")
check outsider_not_counted json "$MT_TMP/fam.json" \
	"all(m['pid'] != $opid and m['tgid'] != $opid for m in d['migrations'])"
check thread_counted json "$MT_TMP/fam.json" \
	"len([m for m in d['migrations'] if m['pid'] == $tid and m['cause'] == 'affinity']) == 5"
check child_counted json "$MT_TMP/fam.json" \
	"len([m for m in d['migrations'] if m['pid'] == $cpid and m['cause'] == 'affinity']) == 7"

# 4. The scheduler's own causes.  Each count is of moves onto an idle CPU, gated on one
#    (check_needs_idle: beside a CPU-bound process lb pulled nothing once); the records'
#    own checks always run.
foreign_before
"$MT" run -o "$MT_TMP/lb.json" -- "$MT_PROGS/balance" lb 1 >/dev/null 2>&1
check_needs_idle cause_lb_pull json "$MT_TMP/lb.json" \
	"d['stats']['by_cause']['lb_pull'] >= 1" "d['stats']['by_cause']"
check cause_lb_pull_queued json "$MT_TMP/lb.json" \
	"all(m['on_rq'] == 2 and m['state'] == 'queued' for m in d['migrations'] if m['cause'] == 'lb_pull')"
foreign_before
"$MT" run -o "$MT_TMP/active.json" -- "$MT_PROGS/balance" active 2 >/dev/null 2>&1
check_needs_idle cause_active_balance json "$MT_TMP/active.json" \
	"d['stats']['by_cause']['active_balance'] >= 1" "d['stats']['by_cause']"
check cause_active_balance_by_stopper json "$MT_TMP/active.json" \
	"all(m['by_comm'].startswith('migration/') and m['age_ns'] == 0 and m['state'] == 'running' for m in d['migrations'] if m['cause'] == 'active_balance')"
# Whether a forked child is placed on the other CPU in a given second is the scheduler's
# choice: a quiet fresh-clone run saw none once in ~10 runs, so measured again up to 4 times
# (false failures ~(1/10)^4, docs/testing.md "No flakes"), as the matrix does 5 times.
foreign_before
for attempt in 1 2 3 4; do
	"$MT" run -o "$MT_TMP/fork.json" -- "$MT_PROGS/balance" fork 1 >/dev/null 2>&1
	json "$MT_TMP/fork.json" "d['stats']['by_cause']['fork'] >= 1" >/dev/null 2>&1 && break
done
check_needs_idle cause_fork json "$MT_TMP/fork.json" \
	"d['stats']['by_cause']['fork'] >= 1" "d['stats']['by_cause']"
check cause_fork_new json "$MT_TMP/fork.json" \
	"all(m['state'] == 'new' and m['age_ns'] == 0 for m in d['migrations'] if m['cause'] == 'fork')"
# The workload's own execve after release is balanced by sched_exec (stopper, in_execve).
check cause_exec json "$MT_TMP/fork.json" \
	"all(m['by_comm'].startswith('migration/') and m['state'] == 'running' for m in d['migrations'] if m['cause'] == 'exec')"
foreign_before
"$MT" run -o "$MT_TMP/wake.json" wakeup -t 6 -d 2 >"$MT_TMP/wake.out" 2>&1
MIGTRACE_WAKEUP_HOOK=1 "$MT" run -o "$MT_TMP/wake-hook.json" wakeup -t 6 -d 2 \
	>"$MT_TMP/wake-hook.out" 2>&1
# The wake-up latency has one sample per sleep of the workload's threads that blocked (each
# of their run/sleep cycles ends in a 700 µs nanosleep), plus a few: the threads' first wake-ups
# and the main thread's.  Both ways of taking it: the kernel's enqueue stamp where it has
# one, and the sched_wakeup program (forced).
for f in wake wake-hook; do
	check "wakeup_latency_per_sleep_$f" python3 - "$MT_TMP/$f.json" "$MT_TMP/$f.out" "$f" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
m = re.search(r"^wakeup: .* (\d+) run/sleep cycles.*; (\d+) of the sleeps blocked",
              open(sys.argv[2]).read(), re.M)
assert m, "the workload printed no cycle count"
# the sleeps that blocked: one whose timer fired before its thread was off the CPU wakes
# nobody (the workload counts its voluntary switches)
cycles, samples = int(m.group(2)), sum(d["histograms"]["wakeup_latency"])
src = d["meta"]["wakeup_latency_from"]
want = ("sched_wakeup",) if sys.argv[3] == "wake-hook" else ("sched_info.last_queued", "sched_wakeup")
assert src in want, "wakeup_latency_from %r, want one of %s" % (src, want)
# a few fewer on a host at load 10 (two guests and builds beside the suite): 8445 for 8521
# sleeps, 8056 for 8077 with the hook (0.9 %, 0.3 %), none below on a quiet or a
# stress-ng --cpu 1 host; the cause is not known, so 2 % of them is allowed and reported
low = cycles - 6 - cycles // 50
assert low <= samples <= cycles + 30, "%d samples (%s) for %d sleeps" % (samples, src, cycles)
print("%d samples (%s) for %d sleeps" % (samples, src, cycles))
PY
done
# Wake-up placements: 51-122 per run on this 2-vCPU host, but a CI run saw fewer than 10
# (6 threads asking 1.8 CPUs of 2 vCPUs the host also steals from leave the wakee's
# previous CPU busy and the other rarely idle): at least one, each off the run queue.
check_needs_idle cause_wakeup json "$MT_TMP/wake.json" \
	"d['stats']['by_cause']['wakeup'] >= 1" "d['stats']['by_cause']"
check cause_wakeup_off_rq json "$MT_TMP/wake.json" \
	"all(m['on_rq'] == 0 and m['state'] == 'waking' for m in d['migrations'] if m['cause'] == 'wakeup')" \
	"[(m['on_rq'], m['state']) for m in d['migrations'] if m['cause'] == 'wakeup'][:5]"
# wakeup's threads sleep 700 µs: most of their wake-up placements come at about that age.
# The main thread's, at the end of its pthread_join (the run's length), is not one of them.
# At most a fifth outside 0.6-5 ms, or 2 where there are fewer than 10: a placement after a
# preemption just before a sleep is seen now and then (451 µs, 1 of 8 in a fresh-clone run),
# and a handful of placements on a busy machine must not make one such a failure.
check_needs_idle wakeup_ages_match_sleep json "$MT_TMP/wake.json" \
	"(lambda w: len(w) > 0 and sum(1 for m in w if not 600_000 <= m['age_ns'] <= 5_000_000) <= max(0.2 * len(w), 2))([m for m in d['migrations'] if m['cause'] == 'wakeup' and m['pid'] != d['meta']['pid']])" \
	"sorted(m['age_ns'] // 1000 for m in d['migrations'] if m['cause'] == 'wakeup')"
check builtin_workload_resolved grep -q '"command":"wakeup -t 6 -d 2"' "$MT_TMP/wake.json"
# Every run proves its completeness: the kernel's own count (se.nr_migrations) of the traced
# tasks' migrations equals what migtrace recorded, once moves without an event are counted.
# selfmig's and family's moves are their own; the balancer's and the wake-ups' need an idle
# CPU, so that a count of zero beside a CPU-bound process is a skip (check_needs_idle).
for f in sleep run fam lb active wake; do
	check "completeness_$f" json "$MT_TMP/$f.json" \
		"d['stats']['completeness']['difference'] == 0 and (d['stats']['completeness']['kernel_counted'] > 0 or '$f' in ('lb', 'active', 'wake'))" \
		"d['stats']['completeness'], d['stats']['by_cause']"
done
for f in lb active wake; do
	check_needs_idle "completeness_${f}_counted" json "$MT_TMP/$f.json" \
		"d['stats']['completeness']['kernel_counted'] > 0" "d['stats']['completeness']"
done

# 4b. Per-task state that finds its pid's slot taken lives in task storage: with one slot,
#     every task but one goes there, and threads, children and completeness are unchanged.
MIGTRACE_TASK_SLOTS=1 "$MT" run --cpus 0,1 -o "$MT_TMP/fam1.json" -- "$MT_PROGS/family" 5 7 \
	>"$MT_TMP/fam1.out" 2>&1
tid=$(awk '/^thread/ {print $2}' "$MT_TMP/fam1.out")
cpid=$(awk '/^child/ {print $2}' "$MT_TMP/fam1.out")
check task_storage_path_thread_child json "$MT_TMP/fam1.json" \
	"len([m for m in d['migrations'] if m['pid'] == $tid and m['cause'] == 'affinity']) == 5 and len([m for m in d['migrations'] if m['pid'] == $cpid and m['cause'] == 'affinity']) == 7" \
	"[(m['pid'], m['cause']) for m in d['migrations']], open('$MT_TMP/fam1.out').read()[-600:]"
foreign_before
MIGTRACE_TASK_SLOTS=1 "$MT" run -o "$MT_TMP/hb1.json" -- hackbench -g 2 -l 100 >"$MT_TMP/hb1.out" 2>&1
check task_storage_path_hackbench json "$MT_TMP/hb1.json" \
	"d['stats']['completeness']['difference'] == 0 and d['stats']['traced_tasks'] >= 80" \
	"d['stats'], open('$MT_TMP/hb1.out').read()[-600:]"
check_needs_idle task_storage_path_hackbench_counted json "$MT_TMP/hb1.json" \
	"d['stats']['completeness']['kernel_counted'] > 0" "d['stats']['completeness']"

# 4c. A thread that execs takes its process's pid (de_thread): its state follows it.  The
#     process is a child of the workload, traced through the fork, not by its tgid.
"$MT" run --cpus 0,1 -o "$MT_TMP/texec.json" -- "$MT_PROGS/threadexec" "$MT_PROGS/selfmig" \
	running 9 1 >"$MT_TMP/texec.out" 2>&1
cpid=$(awk '/^child/ {print $2}' "$MT_TMP/texec.out")
check thread_exec_keeps_state json "$MT_TMP/texec.json" \
	"len([m for m in d['migrations'] if m['pid'] == ${cpid:-0} and m['cause'] == 'affinity']) == 9 and d['stats']['completeness']['difference'] == 0" \
	"[(m['pid'], m['cause']) for m in d['migrations']], d['stats']['completeness'], open('$MT_TMP/texec.out').read()[-600:]"

# 5. Against perf sched and bpftrace on the same run.  perf sched record keeps every
#    sched_migrate_task; those of the workload's tasks with orig_cpu != dest_cpu are its
#    migrations (fork placements have no such event and are left out).  On this VM perf
#    loses every sample raised while CPU 1 runs its idle task (bpftrace sees them), so perf
#    is compared on migrations not run from an idle task, bpftrace on all of them.
#    Tolerance: 2 % or 2 events, for perf's own buffer losses.
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
if command -v perf >/dev/null && perf sched record -o "$MT_TMP/perf.data" -- \
	"$MT" run -o "$MT_TMP/perf.json" wakeup -t 6 -d 2 >/dev/null 2>"$MT_TMP/perf.err"; then
	perf script -i "$MT_TMP/perf.data" -F comm,trace 2>/dev/null >"$MT_TMP/perf.txt"
	python3 - "$MT_TMP/perf.json" "$MT_TMP/perf.txt" >"$MT_TMP/perf.check" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
tasks = {d["meta"]["pid"]}
perf = 0
for line in open(sys.argv[2]):
    m = re.search(r"pid=(\d+) child_comm=\S* child_pid=(\d+)", line)
    if m and int(m.group(1)) in tasks:
        tasks.add(int(m.group(2)))
        continue
    m = re.search(r"comm=(\S+) pid=(\d+) prio=\d+ orig_cpu=(\d+) dest_cpu=(\d+)", line)
    if (m and int(m.group(2)) in tasks and m.group(3) != m.group(4) and m.group(1) != "migtrace"
            and not line.split()[0].startswith("swapper")):
        perf += 1
ours = sum(1 for m in d["migrations"] if m["cause"] != "fork" and not m["by_comm"].startswith("swapper/"))
print("perf sched: %d migrations of the workload not run from idle; migtrace: %d" % (perf, ours))
print("ok" if perf > 0 and abs(ours - perf) <= max(2, 0.02 * perf) else "differ")
PY
	sed 's/^/    /' "$MT_TMP/perf.check"
	check perf_sched_agrees grep -qx ok "$MT_TMP/perf.check"
else
	fail perf_sched_agrees "perf sched record failed: $(tail -n 2 "$MT_TMP/perf.err" 2>/dev/null | tr '\n' ' ')"
fi
if command -v bpftrace >/dev/null; then
	bt=$(timeout 60 bpftrace -e 'tracepoint:sched:sched_migrate_task
		/args->orig_cpu != args->dest_cpu && str(args->comm) == "wakeup"/ { @n = count(); }' \
		-c "$MT run -o $MT_TMP/bt.json wakeup -t 6 -d 2" 2>/dev/null | sed -n 's/^@n: //p')
	ours=$(python3 -c "import json; d=json.load(open('$MT_TMP/bt.json')); print(sum(1 for m in d['migrations'] if m['cause'] != 'fork'))" 2>/dev/null)
	echo "    bpftrace: ${bt:-?} migrations of the workload; migtrace: ${ours:-?}"
	# on a difference, what migtrace's run says of itself (it once read 0 against 316)
	check bpftrace_agrees python3 -c "import json, sys
b, o = int('${bt:-0}'), int('${ours:-0}')
if b > 0 and abs(b - o) <= max(2, 0.02 * b):
    sys.exit(0)
d = json.load(open('$MT_TMP/bt.json'))
s = d['stats']
print('bpftrace %d, migtrace %d: migtrace traced %d tasks, %d switches in, %d records, ended: %s' % (
    b, o, s['traced_tasks'], s['switches_in'], s['records'], d['meta']['end_reason']))
sys.exit(1)"
else
	fail bpftrace_agrees "bpftrace is not installed"
fi

# 6. hackbench at full load: aggregates = records + drops, no drops at the default size.
#    That the consumer keeps up needs a CPU for it: beside another session's build (two
#    compilers on the 2 CPUs) it fell behind and records were lost (a fresh-clone run,
#    2026-12-06), so no drops is checked where the CPUs were otherwise idle (check_needs_idle);
#    the totals hold whatever the load.
if command -v hackbench >/dev/null; then
	foreign_before
	"$MT" run -o "$MT_TMP/hb.json" -- hackbench -l 1000 >/dev/null 2>&1
	check hackbench_totals_consistent json "$MT_TMP/hb.json" \
		"sum(sum(h) for h in d['histograms']['age'].values()) == d['stats']['records'] + d['stats']['records_lost'] == d['stats']['migrations'] and d['stats']['records_read'] == d['stats']['records'] and d['stats']['migrations'] > 100"
	check_needs_idle hackbench_no_drops json "$MT_TMP/hb.json" "d['stats']['records_lost'] == 0"
	check hackbench_pairs_total json "$MT_TMP/hb.json" \
		"sum(p['count'] for p in d['cpu_pairs']) == d['stats']['migrations']"
	# a ring buffer too small to keep up: the pairs of lost records are counted in the kernel,
	# those of the records read by migtrace; together, every migration once
	"$MT" run --ringbuf 4K -o "$MT_TMP/hb4k.json" -- hackbench -T -l 200 >/dev/null 2>&1
	json "$MT_TMP/hb4k.json" "print('    --ringbuf 4K: %d of %d records lost' % (d['stats']['records_lost'], d['stats']['migrations'])) or True"
	check pairs_total_with_losses json "$MT_TMP/hb4k.json" \
		"sum(p['count'] for p in d['cpu_pairs']) == d['stats']['migrations'] == d['stats']['records'] + d['stats']['records_lost']"
	# --max-records: the first N kept, the rest counted; the aggregates stay complete.
	# selfmig's 60 moves beside hackbench make more than 50 whatever else runs (hackbench
	# alone made fewer beside a CPU-bound process).
	"$MT" run --max-records 50 -o "$MT_TMP/hb50.json" -- sh -c '"$1" running 60 1 >/dev/null &
		hackbench -l 200; wait' sh "$MT_PROGS/selfmig" >"$MT_TMP/hb50.out" 2>&1
	check max_records_keeps_first_n json "$MT_TMP/hb50.json" \
		"len(d['migrations']) == d['stats']['records_read'] == 50 and d['stats']['records_not_kept'] == d['stats']['records'] - 50 > 0 and sum(sum(h) for h in d['histograms']['age'].values()) == d['stats']['migrations']"
	check max_records_said grep -q "counted, not kept (--max-records)" "$MT_TMP/hb50.out"
	# the topology levels: every record's level is its CPU pair's by the run's own ids
	# (bpf/migtrace.h MT_LEVEL_OF, here again in Python), the levels split the counts, and
	# the rule's split adds up to the judged pulls
	check levels_match_topology python3 - "$MT_TMP/hb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
L = d["levels"]
def level(a, b):
    core, llc, node = L["core"], L["llc"], L["node"]
    if node[a] != node[b]: return "cross_node"
    if core[a] == core[b]: return "smt"
    if llc[a] < 0 or llc[b] < 0: return "unknown"
    return "llc" if llc[a] == llc[b] else "cross_llc"
bad = [m for m in d["migrations"] if m["level"] != level(m["src_cpu"], m["dst_cpu"])]
by = L["by_level"]
ok = (not bad and len(d["migrations"]) > 100 and
      all(sum(by[l]["by_cause"][c] for l in by) == n for c, n in d["stats"]["by_cause"].items()) and
      sum(L["rules"].values()) == d["stats"]["lb_judged"] and
      sum(by[l]["lb_hot"] for l in by) == d["stats"]["lb_hot"])
if not ok:
    print(bad[:3], {l: by[l]["by_cause"] for l in by}, L["rules"], d["stats"]["lb_judged"])
    sys.exit(1)
print("    levels: " + ", ".join("%s %d" % (l, sum(by[l]["by_cause"].values())) for l in by))
PY
	# a real SMT pair where this machine has one: every pull between siblings is cold
	# whatever its age (task_hot(): SD_SHARE_CPUCAPACITY); without one, the fake trees of
	# tests/unit/test_rule.c check the SMT class and its rule
	pair=$(cat /sys/devices/system/cpu/cpu*/topology/thread_siblings_list 2>/dev/null |
		grep -m1 -E '^[0-9]+[-,][0-9]+' | sed -E 's/^([0-9]+)[-,]([0-9]+).*/\1,\2/')
	if [ -n "$pair" ]; then
		"$MT" run --cpus "$pair" -o "$MT_TMP/smt.json" -- hackbench -l 300 >/dev/null 2>&1
		check smt_pair_pulls_cold json "$MT_TMP/smt.json" \
			"d['stats']['lb_judged'] > 0 and d['levels']['rules']['smt'] == d['stats']['lb_judged'] and d['stats']['lb_hot'] == 0 and all(m['level'] == 'smt' for m in d['migrations'])" \
			"(d['stats']['lb_judged'], d['levels']['rules'], d['stats']['lb_hot'])"
	else
		echo "    no SMT siblings on this machine: the SMT level is checked on fake trees (test_rule)"
	fi
	# what tracing cost is in the run file: our CPU and RSS, the workload's CPU
	check run_reports_cost json "$MT_TMP/hb.json" \
		"0 < d['cost']['self_max_rss_kib'] < 65536 and d['cost']['workload_cpu_s'] > d['cost']['self_user_s'] + d['cost']['self_sys_s'] > 0"
else
	fail hackbench_totals_consistent "hackbench (rt-tests) is not installed"
fi

# 6b. A hostile name: a workload whose name and arguments hold an escape sequence, a newline
#     and a spreadsheet formula.  The text shows them escaped as `ls -b` does (nothing reaches
#     the terminal raw), the CSV cells of its comm start with a quote, the run file keeps the
#     bytes.
hostile="$MT_TMP/=1+2"$'\033[2J'
cp "$MT_PROGS/selfmig" "$hostile"
"$MT" run --cpus 0,1 -o "$MT_TMP/hostile.json" --csv "$MT_TMP/hostile-csv" -- \
	sh -c 'exec "$1" sleeping 3 5' $'\033]0;x\a\nFAKE' "$hostile" >"$MT_TMP/hostile.out" 2>&1
shown="sh -c exec \"\$1\" sleeping 3 5 \\033]0;x\\a\\nFAKE $MT_TMP/=1+2\\033[2J"
check hostile_name_escaped_in_text bash -c '! grep -q $'"'\\033'"' "$1" &&
	grep -qF "Tracing migrations of $2 (pid " "$1" &&
	grep -qF "$2: exited with status 0 after" "$1"' _ "$MT_TMP/hostile.out" "$shown"
check hostile_comm_neutral_in_csv python3 - "$MT_TMP/hostile-csv/migrations.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
mine = [r for r in rows if r["comm"].startswith("'=1+2\x1b")]
assert mine, [r["comm"] for r in rows]
for r in rows:
    for k in ("comm", "by_comm"):
        assert not r[k] or r[k][0] not in "=+-@\t\r", (k, r[k])
PY
check hostile_raw_in_run_file json "$MT_TMP/hostile.json" \
	"d['meta']['command'].endswith('\x1b]0;x\x07\nFAKE ' + '$hostile') and
	 any(m['comm'] == '=1+2\x1b[2J' for m in d['migrations'])" "d['meta']['command']"

# 7. Errors.
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$MT" run -- true 2>&1)
rc=$?
check not_root_names_cap bash -c '[ "$1" = 1 ] && [ "$(echo "$2" | wc -l)" = 1 ] && grep -qE "needs CAP_(BPF|PERFMON|SYS_ADMIN)" <<<"$2"' _ "$rc" "$out"
out=$("$MT" run -- /nonexistent/workload 2>&1)
rc=$?
check not_found_127 bash -c '[ "$1" = 127 ] && grep -q "cannot run" <<<"$2"' _ "$rc" "$out"
check not_found_nothing_attached no_programs_left
out=$("$MT" run --cpus 0,99 -- true 2>&1)
check offline_cpu_exit2 bash -c '[ "$1" = 2 ] && grep -q "CPU 99 is not online" <<<"$2"' _ "$?" "$out"
"$MT" run -o "$MT_TMP/segv.json" -- "$MT_PROGS/segv" >"$MT_TMP/segv.out" 2>&1
rc=$?
check segv_exit_139 test "$rc" = 139
check segv_summary_printed grep -q "^data quality:" "$MT_TMP/segv.out"
check segv_json_written json "$MT_TMP/segv.json" "d['meta']['exit_status'] == 139"
"$MT" run -- sh -c 'exit 3' >/dev/null 2>&1
check exit_status_passed_through test "$?" = 3

# 8. kill -9 of migtrace leaves nothing attached.
"$MT" run wakeup -d 30 >"$MT_TMP/k9.out" 2>&1 &
mtpid=$!
# "Tracing …" is printed once every program is attached.
wait_for "$MT_TMP/k9.out" '^Tracing'
check attached_while_running bash -c 'bpftool prog show | grep -q "name mt_switch" || { cat "$1"; exit 1; }' _ "$MT_TMP/k9.out"
kill -9 "$mtpid"
wait "$mtpid" 2>/dev/null
wpid=$(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' "$MT_TMP/k9.out")
[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
check no_programs_after_kill9 no_programs_left

# 9. -p PID: an existing process, all its threads, until it exits.
# 30 moves over ~3 s: attaching takes ~0.3 s here but seconds on a loaded CI
# machine, and only the moves after it can be seen.
"$MT_PROGS/selfmig" sleeping 30 50 >"$MT_TMP/p.out" 2>&1 &
spid=$!
sleep 0.05
"$MT" run -p "$spid" -o "$MT_TMP/p.json" >/dev/null 2>&1
check pid_mode_traces json "$MT_TMP/p.json" \
	"d['meta']['attached'] and len([m for m in d['migrations'] if m['pid'] == $spid and m['cause'] == 'affinity']) >= 4"
wait "$spid"
