#!/usr/bin/env bash
# migtrace sweep: the lockdown message on this host (nothing run, nothing changed), and on
# fake trees (--root: the tunable, its restore record and sched_schedstats are files under
# the root, the workload and the tracer are real): every value set and read back, in a
# rotated order, and the original restored on a normal end, a failing or crashing workload,
# SIGTERM, and SIGKILL followed by `sweep --restore`; a stale record refuses a new sweep.
. "$(dirname "$0")/../lib.sh"

# 1. The command line: help, and bad input in one line with exit 2 before anything runs.
out=$("$MT" sweep --help 2>&1); rc=$?
check sweep_help test "$rc" = 0 -a -n "$(echo "$out" | grep USAGE)" -a \
	-n "$(echo "$out" | grep EXAMPLES)" -a -n "$(echo "$out" | grep -- --root)"
for args in "--values 1ms -- true" "--values 1ms,1ms -- true" "--values 1ms,xyz -- true" \
	    "--values 1ms,5s -- true" "--values 1ms,5ms --reps 0 -- true" \
	    "--values 1ms,5ms" "--restore --values 1ms,5ms" "--values 1ms,5ms --bogus -- true"; do
	# shellcheck disable=SC2086
	err=$("$MT" sweep $args 2>&1 >/dev/null); rc=$?
	name=sweep_bad_input_$(echo "$args" | tr -c 'a-z0-9' _ | cut -c1-30)
	check "$name" test "$rc" = 2 -a "$(echo "$err" | wc -l)" = 1
done

# 2. This host: where the tunable cannot be written, one line with the reason, a pointer to
#    report --what-if, exit 1, no record written and no workload run.
if "$MT" doctor 2>/dev/null | grep -q 'sweep cannot run'; then
	rm -f "$MT_TMP/ran"
	err=$("$MT" sweep --values 1ms,5ms -- touch "$MT_TMP/ran" 2>&1 >/dev/null); rc=$?
	check sweep_lockdown_exit_1 test "$rc" = 1
	check sweep_lockdown_one_line test "$(echo "$err" | wc -l)" = 1
	check sweep_lockdown_reason_and_what_if sh -c "echo '$err' | grep -q 'cannot sweep' &&
		echo '$err' | grep -q 'report --what-if' &&
		echo '$err' | grep -Eq 'locked down|read-only|not root|EPERM|EACCES'"
	check sweep_lockdown_nothing_run test ! -e "$MT_TMP/ran"
	check sweep_lockdown_no_record test ! -e /run/migtrace/migration_cost.restore
else
	skip sweep_lockdown "the tunable is writable on this host: no lockdown to report"
fi

need_bpf_pair sweep_fake_tree || exit 0
if ! command -v hackbench >/dev/null; then
	fail sweep_fake_tree "hackbench is not installed (make deps: rt-tests)"
	exit 0
fi

# fake ROOT: a 5.13+ tree (debugfs tunable, schedstats off) with the kernel default
fake() {
	rm -rf "$1"
	mkdir -p "$1/sys/kernel/debug/sched" "$1/proc/sys/kernel" "$1/run"
	echo 500000 >"$1/sys/kernel/debug/sched/migration_cost_ns"
	echo 0 >"$1/proc/sys/kernel/sched_schedstats"
}
value() { tr -d ' \n' <"$1/sys/kernel/debug/sched/migration_cost_ns"; }
schedstats() { tr -d ' \n' <"$1/proc/sys/kernel/sched_schedstats"; }
record() { echo "$1/run/migtrace/migration_cost.restore"; }
restored() { test "$(value "$1")" = 500000 -a "$(schedstats "$1")" = 0 -a ! -e "$(record "$1")"; }

# 3. A normal sweep: 3 values x 2 repetitions of a real workload, each value read back, the
#    order rotated, the JSON written, the original value and sched_schedstats back.
R=$MT_TMP/root
fake "$R"
"$MT" sweep --root "$R" --values 1ms,5ms,10ms --reps 2 --cpus 0,1 -o "$MT_TMP/s.json" \
	-- hackbench -g 2 -l 50 >"$MT_TMP/s.out" 2>"$MT_TMP/s.err"; rc=$?
check sweep_normal_exit_0 test "$rc" = 0
check sweep_normal_restored restored "$R"
check sweep_normal_read_back test "$(grep -c '^migtrace sweep: repetition .*read back from' "$MT_TMP/s.err")" = 6
check sweep_normal_said_restored grep -q 'restored the migration cost to 0.5 ms' "$MT_TMP/s.err"
check sweep_normal_json json "$MT_TMP/s.json" \
	"d['schema'] == 'migtrace.sweep/1' and d['complete'] and len(d['runs']) == 6 and \
	 [r['value_ns'] for r in d['runs']] == [1000000, 5000000, 10000000, 5000000, 10000000, \
	 1000000] and all(r['throughput_source'] == 'hackbench 1 / Time' for r in d['runs']) \
	 and d['values'][0]['normalised'] == 1 and d['best_ns'] in (1000000, 5000000, 10000000)"
check sweep_normal_table grep -q '^best: ' "$MT_TMP/s.out"
check sweep_normal_witness_said grep -q 'kernel witnesses' "$MT_TMP/s.out"

# 4. A workload that fails, and one that crashes: the sweep stops, exit 1, all restored.
fake "$R"
"$MT" sweep --root "$R" --values 1ms,5ms -- false >/dev/null 2>"$MT_TMP/f.err"; rc=$?
check sweep_failing_workload_exit_1 test "$rc" = 1
check sweep_failing_workload_restored restored "$R"
check sweep_failing_workload_said grep -q 'the workload failed at' "$MT_TMP/f.err"
fake "$R"
"$MT" sweep --root "$R" --values 1ms,5ms -- "$MT_PROGS/segv" >/dev/null 2>&1; rc=$?
check sweep_crashing_workload_exit_1 test "$rc" = 1
check sweep_crashing_workload_restored restored "$R"

# wait_changed ROOT: until the sweep has written its first value (at most 10 s)
wait_changed() {
	for _ in $(seq 100); do
		[ "$(value "$1")" != 500000 ] && [ -e "$(record "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}

# 5. SIGTERM (and SIGHUP) mid-run: the workload is ended, the original restored, 128 + N.
for sig in TERM HUP INT; do
	fake "$R"
	"$MT" sweep --root "$R" --values 1ms,5ms --reps 3 -- sleep 20 >/dev/null 2>&1 &
	pid=$!
	wait_changed "$R"
	sleep 1
	kill -s "$sig" "$pid"
	wait "$pid"; rc=$?
	check "sweep_sig${sig}_exit" test "$rc" = $((128 + $(kill -l "$sig")))
	check "sweep_sig${sig}_restored" restored "$R"
done

# 6. SIGKILL: the value stays changed with its record; a new sweep refuses, naming --restore;
#    `sweep --restore` puts the original back and removes the record.
fake "$R"
"$MT" sweep --root "$R" --values 2ms,5ms -- sleep 20 >/dev/null 2>&1 &
pid=$!
wait_changed "$R"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check sweep_kill9_left_changed test "$(value "$R")" = 2000000 -a -e "$(record "$R")" -a \
	"$(schedstats "$R")" = 1
err=$("$MT" sweep --root "$R" --values 1ms,5ms -- true 2>&1 >/dev/null); rc=$?
check sweep_stale_record_refused test "$rc" = 1 -a "$(value "$R")" = 2000000
check sweep_stale_record_names_restore sh -c "echo '$err' | grep -q -- '--restore'"
"$MT" sweep --root "$R" --restore >/dev/null 2>&1; rc=$?
check sweep_restore_exit_0 test "$rc" = 0
check sweep_restore_value_back restored "$R"
"$MT" sweep --root "$R" --restore >/dev/null 2>&1; rc=$?
check sweep_restore_nothing_left_exit_0 test "$rc" = 0
