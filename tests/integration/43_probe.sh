#!/usr/bin/env bash
# run --probe-moves (docs/design.md, "Probed moves"): the randomised moves inside a live run.
# 1. migpenalty, whose move costs 1 ms by construction (a unit run on another CPU than its
#    thread's previous one spins 1 ms more; its 16 KiB refill adds a few µs), whatever the
#    host's caches and vCPU placement do: the probed cost's interval must hold 1 ms, through
#    --unit (each moment's next unit) and through the runs BPF times (no units).
# 2. hackbench, a program without units: a per-move cost from its runs to the next block.
# 3. The workload's masks are the same before and after, also when migtrace's whole process
#    group is killed with SIGKILL while it holds a mask narrowed (the guard gives it back).
# 4. report renders the same probed section again from the run file.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair probe_tests || exit 0

# recovers FILE KNOWN_NS: a cell with 10 moves and 10 shams or more whose cost interval holds
# KNOWN_NS (its upper end may exceed it by the real refill of 16 KiB: 5 %), and no cell of
# that size whose interval lies away from it.
recovers() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
known = float(sys.argv[2])
res = d["probes"]["result"]
cells = [c for c in res["cells"] if c["n_migrated"] >= 10 and c["n_stayed"] >= 10]
show = [(c["age_ns"], c["n_migrated"], c["n_stayed"], c["migration_cost_ns"],
         c["migration_cost_lo_ns"], c["migration_cost_hi_ns"]) for c in res["cells"]]
print("timed %d moves, %d shams; cells (age, moves, shams, cost, lo, hi): %s"
      % (res["timed_moves"], res["timed_shams"], show))
ok = cells and all(c["migration_cost_lo_ns"] <= known * 1.05 and
                   c["migration_cost_hi_ns"] >= known * 0.98 for c in cells)
sys.exit(0 if ok else 1)
PY
}

# 1. the known cost, by units and by runs
MP=$MT_PROGS/migpenalty
"$MT" run --probe-moves 100 --probe-share 50 --unit "$MP:mp_unit" -o "$MT_TMP/unit.json" \
	-- "$MP" 2 1000 1000 4 >"$MT_TMP/unit.out" 2>&1
check probe_unit_run_ok test $? = 0
check probe_unit_recovers_known_cost recovers "$MT_TMP/unit.json" 1000000
check probe_unit_masks_back json "$MT_TMP/unit.json" \
	"(p := d['probes'])['masks_narrowed'] > 0 and p['masks_restored'] == p['masks_narrowed'] and p['by_runs'] is False and len(p['moments']) == p['moves'] + p['shams']" \
	"{k: v for k, v in d['probes'].items() if k not in ('moments', 'units', 'result')}"
"$MT" run --probe-moves 100 --probe-share 50 -o "$MT_TMP/runs.json" \
	-- "$MP" 2 1000 1000 4 >"$MT_TMP/runs.out" 2>&1
check probe_runs_run_ok test $? = 0
check probe_runs_recovers_known_cost recovers "$MT_TMP/runs.json" 1000000
# the text says it in validate's words, never "biased"
check probe_verdict_words bash -c 'grep -q "^verdict from the probed moves" "$1" && grep -qE "^  judged: +[0-9]+ probed moves" "$1" && grep -qE "^  => (the kernel.s|undetermined)" "$1" && ! grep -q "biased" "$1"' _ "$MT_TMP/runs.out"

# 2. hackbench: no units, a cost per move from the runs to the next block
if command -v hackbench >/dev/null; then
	"$MT" run --probe-moves 50 -o "$MT_TMP/hb.json" -- hackbench -g 2 -l 400000 -s 100 \
		>"$MT_TMP/hb.out" 2>&1 &
	mt=$!
	# hackbench runs until its loops are done: enough runs are timed well before
	wait_for "$MT_TMP/hb.out" '^Tracing' 30
	sleep 3
	kill -INT "$mt"
	wait "$mt"
	check probe_hackbench_cost json "$MT_TMP/hb.json" \
		"(r := d['probes']['result'])['timed_moves'] >= 5 and r['timed_shams'] >= 5 and any(c['n_migrated'] and c['n_stayed'] and c['migration_cost_ns'] is not None for c in r['cells']) and d['probes']['by_runs']" \
		"{k: v for k, v in d['probes']['result'].items() if k != 'verdict'}"
else
	fail probe_hackbench_cost "hackbench is not installed (make deps installs rt-tests)"
fi

# 3. SIGKILL of migtrace's whole group while it holds a mask: the guard gives it back.  The
#    threads sleep 300 ms, so a move holds its mask that long; a busy thread grows the budget.
"$MP" 3 300000 0 30 1 &
wl=$!
masks() { for t in /proc/"$wl"/task/*; do printf '%s %s\n' "${t##*/}" "$(taskset -pc "${t##*/}" 2>/dev/null | sed 's/.*: //')"; done; }
wait_until 5 test "$(ls /proc/"$wl"/task | wc -l)" = 5
masks >"$MT_TMP/masks.before"
setsid "$MT" run -p "$wl" --probe-moves 200 --probe-share 50 --duration 20s \
	>"$MT_TMP/kill.out" 2>&1 &
mtpid=$!
wait_for "$MT_TMP/kill.out" '^Tracing' 30
# a narrowed mask: one CPU where the workload has all of them
narrowed() { masks | diff -q - "$MT_TMP/masks.before" >/dev/null && return 1; return 0; }
if wait_until 10 narrowed; then
	masks >"$MT_TMP/masks.held"
	kill -KILL -- -"$mtpid"
	wait "$mtpid" 2>/dev/null
	wait_until 5 bash -c 'diff -q "$1" <(for t in /proc/"$2"/task/*; do printf "%s %s\n" "${t##*/}" "$(taskset -pc "${t##*/}" 2>/dev/null | sed "s/.*: //")"; done)' _ "$MT_TMP/masks.before" "$wl"
	masks >"$MT_TMP/masks.after"
	check probe_sigkill_masks_back bash -c 'diff "$1" "$2" && ! diff -q "$1" "$3" >/dev/null' _ \
		"$MT_TMP/masks.before" "$MT_TMP/masks.after" "$MT_TMP/masks.held"
else
	kill -KILL -- -"$mtpid" 2>/dev/null
	fail probe_sigkill_masks_back "no mask was narrowed in 10 s: $(tail -n 2 "$MT_TMP/kill.out" | tr '\n' ' ')"
fi
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null

# 4. report: the same probed section from the file
"$MT" report "$MT_TMP/runs.json" >"$MT_TMP/report.out" 2>&1
check probe_report_same bash -c 'diff <(sed -n "/^probed moves/,\$p" "$1") <(sed -n "/^probed moves/,\$p" "$2")' _ \
	"$MT_TMP/runs.out" "$MT_TMP/report.out"

# 5. the exports carry it: the moments and the cost by age as CSV, the probe families in
#    OpenMetrics; a run without probes writes no probe file
mkdir -p "$MT_TMP/csv" "$MT_TMP/csv0"
"$MT" report "$MT_TMP/runs.json" --csv "$MT_TMP/csv" --openmetrics "$MT_TMP/runs.om" >/dev/null 2>&1
"$MT" report "$MT_ROOT/tests/data/sample-run.json" --csv "$MT_TMP/csv0" >/dev/null 2>&1
check probe_exports python3 - "$MT_TMP/runs.json" "$MT_TMP/csv" "$MT_TMP/runs.om" "$MT_TMP/csv0" <<'PY'
import csv, json, os, sys
d = json.load(open(sys.argv[1]))["probes"]
moments = list(csv.DictReader(open(os.path.join(sys.argv[2], "probe_moments.csv"))))
cells = list(csv.DictReader(open(os.path.join(sys.argv[2], "probe_cells.csv"))))
om = open(sys.argv[3]).read()
ok = (len(moments) == len(d["moments"]) and
      [int(m["tid"]) for m in moments] == [m["tid"] for m in d["moments"]] and
      len(cells) == len(d["result"]["cells"]) and
      'migtrace_probe_moments_total{kind="move"} %d' % d["moves"] in om and
      'migtrace_probe_timed_total{arm="sham"} %d' % d["result"]["timed_shams"] in om and
      "migtrace_probe_cost_seconds{" in om and
      not any(f.startswith("probe_") for f in os.listdir(sys.argv[4])))
print(len(moments), len(d["moments"]), len(cells), os.listdir(sys.argv[4]))
sys.exit(0 if ok else 1)
PY

# 6. report A B: both runs' probed cost and verdict side by side
"$MT" report "$MT_TMP/unit.json" "$MT_TMP/runs.json" >"$MT_TMP/compare.out" 2>&1
check probe_compare grep -qE '^  probed \(95 %\) +[0-9.]+ [mµn]?s \[' "$MT_TMP/compare.out"
