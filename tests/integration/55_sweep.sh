#!/usr/bin/env bash
# migtrace sweep: the lockdown message on this host (nothing run, nothing changed), and on
# fake trees (--root: the tunable, its restore record and sched_schedstats are files under
# the root, the workload and the tracer are real): every value set and read back, in a
# rotated order, and the original restored on a normal end, a failing or crashing workload,
# SIGTERM, and SIGKILL followed by `sweep --restore`; a stale record refuses a new sweep, and
# of two sweeps started together one is refused, exit 75.
. "$(dirname "$0")/../lib.sh"

# 1. The command line: help, and bad input in one line with exit 2 before anything runs.
out=$("$MT" sweep --help 2>&1); rc=$?
check sweep_help test "$rc" = 0 -a -n "$(echo "$out" | grep USAGE)" -a \
	-n "$(echo "$out" | grep EXAMPLES)" -a -n "$(echo "$out" | grep -- --root)"
for args in "--values 1ms -- true" "--values 1ms,1ms -- true" "--values 1ms,xyz -- true" \
	    "--values 1ms,5s -- true" "--values 1ms,5ms --reps 0 -- true" \
	    "--values 1ms,5ms" "--restore --values 1ms,5ms" \
	    "--values 1ms,5ms --perfetto $MT_TMP/t.json -- true" \
	    "--values 1ms,5ms --what-if 1ms -- true" "--restore --plot $MT_TMP/p" \
	    "--values 1ms,5ms --csv $MT_TMP/no/dir -- true" \
	    "--values 1ms,5ms --openmetrics $MT_TMP -- true"; do
	# shellcheck disable=SC2086
	err=$("$MT" sweep $args 2>&1 >/dev/null); rc=$?
	name=sweep_bad_input_$(echo "$args" | tr -c 'a-z0-9' _ | cut -c1-30)
	check "$name" test "$rc" = 2 -a "$(echo "$err" | wc -l)" = 1
done
# a mistyped option: getopt's line and argp's hint naming sweep's --help
err=$("$MT" sweep --values 1ms,5ms --bogus -- true 2>&1 >/dev/null); rc=$?
check sweep_bad_input_bogus_hint test "$rc" = 2 -a "$(echo "$err" | wc -l)" = 2 -a \
	-n "$(echo "$err" | grep -F "Try \`migtrace sweep --help'")"

# the exports' paths are checked before anything runs, and say which option
err=$("$MT" sweep --values 1ms,5ms --plot "$MT_TMP/no/dir" -- touch "$MT_TMP/ran" 2>&1 >/dev/null); rc=$?
check sweep_plot_path_refused sh -c "[ $rc = 2 ] && [ ! -e '$MT_TMP/ran' ] &&
	echo '$err' | grep -q 'migtrace sweep: --plot: cannot make $MT_TMP/no/dir'"
err=$("$MT" sweep --values 1ms,5ms --perfetto "$MT_TMP/t.json" -- true 2>&1 >/dev/null)
check sweep_perfetto_says_why bash -c 'grep -q -- "--perfetto is a run.s records: sweep keeps none" <<<"$1"' _ "$err"

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

# 2b. A kernel that does not take the value: the fake tunable is a FIFO served by a small
#     stand-in for the kernel (tests/integration/fake_tunable.py) that keeps its value when
#     1 ms is written.  The sweep refuses in one line naming what it read back, runs
#     nothing, and restores (the record removed, sched_schedstats back).
if [ "$(id -u)" = 0 ]; then
	F=$MT_TMP/fifo-root
	mkdir -p "$F/sys/kernel/debug/sched" "$F/proc/sys/kernel" "$F/run"
	echo 0 >"$F/proc/sys/kernel/sched_schedstats"
	mkfifo "$F/sys/kernel/debug/sched/migration_cost_ns"
	python3 "$MT_ROOT/tests/integration/fake_tunable.py" \
		"$F/sys/kernel/debug/sched/migration_cost_ns" 500000 1000000 "$MT_TMP/fake.log" &
	server=$!
	rm -f "$MT_TMP/ran"
	"$MT" sweep --root "$F" --values 1ms,5ms -- touch "$MT_TMP/ran" >"$MT_TMP/mm.out" \
		2>"$MT_TMP/mm.err"; rc=$?
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	check sweep_readback_mismatch_exit_1 test "$rc" = 1
	check sweep_readback_mismatch_one_line bash -c '[ "$(grep -vc "^migtrace sweep: restored the migration cost to 0.5 ms (500000 ns, read back from" "$1")" = 1 ] &&
		grep -q "^migtrace: wrote 1000000 to .*migration_cost_ns but read back 500000: the kernel did not take the value$" "$1"' _ "$MT_TMP/mm.err"
	check sweep_readback_mismatch_nothing_run test ! -e "$MT_TMP/ran" -a ! -s "$MT_TMP/mm.out"
	check sweep_readback_mismatch_restored bash -c '[ ! -e "$1/run/migtrace/migration_cost.restore" ] &&
		[ "$(tr -d " \n" <"$1/proc/sys/kernel/sched_schedstats")" = 0 ] &&
		grep -q "^kept 500000, refused 1000000$" "$2" && tail -n 1 "$2" | grep -q "^took 500000$"' \
		_ "$F" "$MT_TMP/fake.log"
else
	skip sweep_readback_mismatch "not root: the tunable is writable only as root"
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
X=$MT_TMP/exports
mkdir -p "$X"
"$MT" sweep --root "$R" --values 50us,5ms,10ms --reps 2 --cpus 0,1 -o "$MT_TMP/s.json" \
	--csv "$X/csv" --prometheus "$X/s.prom" --openmetrics "$X/s.om" --plot "$X/plots" \
	-- hackbench -g 2 -l 50 >"$MT_TMP/s.out" 2>"$MT_TMP/s.err"; rc=$?
check sweep_normal_exit_0 test "$rc" = 0
check sweep_normal_restored restored "$R"
check sweep_normal_read_back test "$(grep -c '^migtrace sweep: repetition .*read back from' "$MT_TMP/s.err")" = 6
check sweep_normal_said_restored grep -q 'restored the migration cost to 0.5 ms' "$MT_TMP/s.err"
check sweep_normal_json json "$MT_TMP/s.json" \
	"d['schema'] == 'migtrace.sweep/1' and d['complete'] and len(d['runs']) == 6 and \
	 [r['value_ns'] for r in d['runs']] == [50000, 5000000, 10000000, 5000000, 10000000, \
	 50000] and all(r['throughput_source'] == 'hackbench 1 / Time' for r in d['runs']) \
	 and d['values'][0]['normalised'] == 1 and d['best_ns'] in (50000, 5000000, 10000000)"
check sweep_normal_table grep -q '^best: ' "$MT_TMP/s.out"
check sweep_normal_witness_said grep -q 'kernel witnesses' "$MT_TMP/s.out"
# the table's columns line up, µs (two bytes, one column) included
check sweep_table_aligned python3 - "$MT_TMP/s.out" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("value "))
rows = lines[i:i + 4]
assert rows[1].startswith("50 µs ") and rows[2].startswith("5 ms ") and rows[3].startswith("10 ms "), rows
assert len({len(r) for r in rows}) == 1, [len(r) for r in rows]
assert len({r.index(" 2 ") for r in rows[1:]}) == 1
PY

# 3b. The sweep's exports, made from what the sweep file holds: CSV rows per run and per
#     value, promtool's lint and the gauges' values, the plot's PNG and SVG.
check sweep_csv_rows python3 - "$X/csv/sweep.csv" "$MT_TMP/s.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
d = json.load(open(sys.argv[2]))
runs = [r for r in rows if r["row"] == "run"]
vals = [r for r in rows if r["row"] == "value"]
assert len(rows) == 9 and len(runs) == 6 and len(vals) == 3, len(rows)
for k in ("value_ns", "wall_s", "idle_pct", "throughput_median", "migrations_lb_pull", "lb_hot"):
    assert k in rows[0], k
for c, j in zip(runs, d["runs"]):
    assert (int(c["value_ns"]), int(c["rep"])) == (j["value_ns"], j["rep"]), (c, j)
    assert float(c["throughput"]) == j["throughput"] and float(c["wall_s"]) == j["wall_s"]
    assert int(c["migrations"]) == sum(j["migrations"].values())
    assert int(c["lb_hot"]) == j["lb_hot"] and c["throughput_unit"] == j["throughput_unit"]
for c, j in zip(vals, d["values"]):
    assert int(c["value_ns"]) == j["value_ns"] and int(c["runs"]) == j["runs"] == 2
    assert float(c["throughput_median"]) == j["throughput_median"]
    assert float(c["normalised"]) == j["normalised"]
    assert int(c["migrations"]) == sum(sum(r["migrations"].values()) for r in d["runs"] if r["value_ns"] == j["value_ns"])
PY
if command -v promtool >/dev/null; then
	check sweep_promtool promtool check metrics <"$X/s.prom"
else
	fail sweep_promtool "promtool not installed (apt-get install prometheus; make deps does)"
fi
# --openmetrics: the same samples as OpenMetrics 1.0 (tests/integration/om_same.py)
check sweep_openmetrics1_same_samples /usr/bin/python3 "$MT_ROOT/tests/integration/om_same.py" \
	"$X/s.prom" "$X/s.om"
check sweep_openmetrics_values python3 - "$X/s.prom" "$MT_TMP/s.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
def g(name, labels):
    m = re.search(r"^%s\{%s\} (\S+)$" % (name, re.escape(labels)), text, re.M)
    assert m, (name, labels)
    return float(m.group(1))
secs = {50000: "5e-05", 5000000: "0.005", 10000000: "0.01"}
for v in d["values"]:
    lab = 'value_seconds="%s"' % secs[v["value_ns"]]
    assert g("migtrace_sweep_runs", lab) == 2
    assert g("migtrace_sweep_throughput_normalised_ratio", lab) == v["normalised"]
    assert g("migtrace_sweep_throughput", lab + ',stat="median"') == v["throughput_median"]
    assert abs(g("migtrace_sweep_idle_ratio", lab) - v["idle_pct_median"] / 100) < 1e-12
    for cause in d["runs"][0]["migrations"]:
        want = sum(r["migrations"][cause] for r in d["runs"] if r["value_ns"] == v["value_ns"])
        assert g("migtrace_sweep_migrations", lab + ',cause="%s"' % cause) == want, cause
    assert g("migtrace_sweep_lb_pulls_hot", lab) == sum(r["lb_hot"] for r in d["runs"] if r["value_ns"] == v["value_ns"])
assert re.search(r'^migtrace_sweep_original_value_seconds 0.0005$', text, re.M)
assert re.search(r'^migtrace_sweep_best_value_seconds\{beyond_noise="(true|false)"\} %s$' % re.escape(secs[d["best_ns"]]), text, re.M)
PY
check sweep_plot_valid python3 - "$X/plots" <<'PY'
import os, struct, sys, xml.etree.ElementTree as ET
assert sorted(os.listdir(sys.argv[1])) == ["sweep.png", "sweep.svg"], os.listdir(sys.argv[1])
png = open(os.path.join(sys.argv[1], "sweep.png"), "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (960, 600)
assert 5000 < len(png) < 2000000, len(png)
svgf = os.path.join(sys.argv[1], "sweep.svg")
assert 5000 < os.path.getsize(svgf) < 2000000
text = "".join(ET.parse(svgf).getroot().itertext())
for w in ["migration cost set (log scale)", "throughput / the first value's median (50 µs)",
          "idle + iowait of the CPU set (%)", "50 µs", "5 ms", "10 ms", "original 0.5 ms (restored)",
          "throughput from hackbench 1 / Time"]:
    assert w in text, w
PY

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

# 7. Two sweeps at once: one holds the tunable, the other is refused in one line before it
#    changes anything (exit 75, "try again later"), and the original is back at the end.
#    (Two sweeps sharing one record left the value changed: the first restored and removed
#    the record while the second went on setting values, then had nothing to restore.)
for trial in 1 2 3 4 5; do
	fake "$R"
	"$MT" sweep --root "$R" --values 1ms,5ms --reps 1 -- sleep 0.2 >/dev/null \
		2>"$MT_TMP/a.err" &
	a=$!
	"$MT" sweep --root "$R" --values 2ms,10ms --reps 2 -- sleep 0.2 >/dev/null \
		2>"$MT_TMP/b.err"; brc=$?
	wait "$a"; arc=$?
	check "sweep_concurrent_${trial}_restored" restored "$R"
	# whichever started second is the one refused, the other ends normally
	if [ "$arc" = 0 ]; then refused=$MT_TMP/b.err; else refused=$MT_TMP/a.err; fi
	check "sweep_concurrent_${trial}_one_ran_one_refused" bash -c \
		'[ "$1:$2" = 0:75 ] || [ "$1:$2" = 75:0 ]' _ "$arc" "$brc"
	check "sweep_concurrent_${trial}_refused_one_line" bash -c '[ "$(wc -l <"$1")" = 1 ] &&
		grep -q "^migtrace: .*another migtrace (pid [0-9]*) is sweeping .*: wait for it" \
		"$1"' _ "$refused"
done
