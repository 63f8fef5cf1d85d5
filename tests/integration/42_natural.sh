#!/usr/bin/env bash
# A natural run's hot time against the grid's D* (docs/design.md, "The natural co-runner"):
# validate measures D* with its interval; cachewalk's threads then run naturally beside its
# polluter on both CPUs at a set rate, whose rate of displacement the run measures (the bytes
# it streamed while the threads slept); the age by which the threads' same-CPU wakes have come
# to cost what the grid's migration cost fell by at D* (report GRID NATURAL reads it) must lie
# within D* / that rate.  The host moves the two vCPUs near and far (the migration cost jumps
# between ~57 µs and ~350 µs within minutes), and D* is only the shared cache's when they are
# near: the cost level, measured by the grid and by a probe after the natural run, says which
# regime each was in; when they differ, or D* is unbounded or the grid's cost mostly stays at
# full displacement (far apart), or the grid's two rates do not show the cost falling with
# the polluter's bytes rather than with age (the premise of the comparison), the pair is
# measured again, and after 2 attempts the comparison is a skip that says why (a third
# changed nothing in 7 fresh-clone runs on an EPYC host: 21 attempts, none comparable).
. "$(dirname "$0")/../lib.sh"

need_bpf_pair natural_corunner_tests || exit 0

RATE=300	# MB/s: D* (~0.9 MiB near) / 300 MB/s ~ 3 ms, inside the sleeps' ages

# compare GRID NATURAL PROBE [SCALE]: one line of figures, then ok / outside / "not compared:
# why", from `report GRID NATURAL`; SCALE multiplies the natural run's measured rate first (a
# rate wrong by that much must come out outside).  The cost level of the grid and of the probe
# after the natural run must agree: the host did not move the vCPUs in between.
compare() {
	local nat=$2
	if [ -n "${4:-}" ]; then
		python3 - "$2" "$4" "$MT_TMP/scaled.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("corunner_mbps", "corunner_lo_mbps", "corunner_hi_mbps"):
    d["correlation"][k] *= float(sys.argv[2])
json.dump(d, open(sys.argv[3], "w"))
PY
		nat=$MT_TMP/scaled.json
	fi
	"$MT" report "$1" "$nat" >"$MT_TMP/report.out" 2>&1
	python3 - "$1" "$3" "$MT_TMP/report.out" <<'PY'
import json, re, sys
g = json.load(open(sys.argv[1]))["correlation"]
after = json.load(open(sys.argv[2]))["correlation"]["cells"][0]["migration_cost_ns"]
text = open(sys.argv[3]).read()
block = text[text.find("the grid's D* against"):] if "the grid's D* against" in text else ""
lines = [l.strip() for l in block.splitlines()[1:]]
print("cost level %.0f µs (grid), %.0f µs (probe after); %s" % (
    g["max_cost_ns"] / 1e3, after / 1e3, "; ".join(l for l in lines if not l.startswith("=>"))))
verdict = next((l for l in lines if l.startswith("=>")), "")
# The premise: the cost falls with the polluter's bytes, not with age.  The grid's two rates
# are 10x apart: bytes-driven, their D* intervals overlap and their hot times by age lie
# ~10x apart; time-driven (the host's own traffic evicts: docs/design.md, "The natural
# co-runner"), the hot times by age overlap and D* grows with the rate.  Only the first is
# the regime this comparison is about; the others are said and measured again (a fresh-clone
# run found the grid time-driven and the natural age 1.6x D* / rate).
def overlap(rs, lo, hi):
    if len(rs) < 2 or any(r.get(lo) is None or r.get(hi) is None for r in rs):
        return None
    return max(r[lo] for r in rs) <= min(r[hi] for r in rs)
rs = g.get("rates") or []
by_bytes = overlap(rs, "dstar_lo_bytes", "dstar_hi_bytes")
by_age = overlap(rs, "hot_lo_ns", "hot_hi_ns")
figs = ", ".join("%.0f MB/s: D* %s, hot time by age %s" % (
    r.get("achieved_mbps") or 0,
    "%.2f-%.2f MiB" % (r["dstar_lo_bytes"] / 2**20, r["dstar_hi_bytes"] / 2**20)
    if r.get("dstar_hi_bytes") is not None else r.get("dstar_state", "?"),
    "%.2f-%.2f ms" % (r["hot_lo_ns"] / 1e6, r["hot_hi_ns"] / 1e6)
    if r.get("hot_hi_ns") is not None else r.get("hot_state", "?")) for r in rs)
if by_bytes and not by_age:
    regime = "bytes"
elif by_age and not by_bytes:
    regime = "the grid's cost follows age, not the polluter's bytes (%s)" % figs
elif by_age and by_bytes:
    regime = "the grid cannot tell bytes from age: both overlap across its rates (%s)" % figs
else:
    regime = "the grid's rates agree on neither D* nor the hot time by age (%s)" % figs
if verdict and not verdict.startswith("=> not compared"):
    print(verdict)
if not block:
    print("not compared: report printed no prediction (no D* or no measured co-runner)")
elif not (0.4 < after / g["max_cost_ns"] < 2.5):
    print("not compared: the cost level moved from %.0f µs to %.0f µs (the host moved the "
          "vCPUs between the two)" % (g["max_cost_ns"] / 1e3, after / 1e3))
elif verdict.startswith("=> not compared"):
    print("not compared: " + verdict[len("=> not compared: "):])
elif regime != "bytes":
    print("not compared: " + regime)
elif "the refill comes from beyond what the polluter evicts" in block:
    # the far regime with a D* bounded all the same (the rates disagreed, and the nearest
    # rate's was taken): the polluter does not reach the level the refill comes from, so
    # its D* is not the shared cache's that this test compares (2 ms at 400 µs gave 1.45x)
    print("not compared: most of the grid's cost remains at full displacement (the refill "
          "comes from beyond what the polluter evicts: the vCPUs are apart)")
elif "inside its interval" in verdict:
    print("ok")
else:
    print("outside")
PY
}

for attempt in 1 2; do
	"$MT" validate --rates 300,3000 --samples 20 \
		--ages 50,100,200,300,500,1000,2000,3000,5000,10000 \
		-o "$MT_TMP/grid.json" >"$MT_TMP/grid.out" 2>&1
	"$MT" run -o "$MT_TMP/nat.json" cachewalk --threads 2 --sleep exp:3000 --duration 5 \
		--polluter "0,1:$RATE" >"$MT_TMP/nat.out" 2>&1
	"$MT" run -o "$MT_TMP/probe.json" cachewalk --controlled --samples 10 --ws 256K \
		--ages 50 >/dev/null 2>&1
	compare "$MT_TMP/grid.json" "$MT_TMP/nat.json" "$MT_TMP/probe.json" >"$MT_TMP/cmp"
	sed 's/^/    /' "$MT_TMP/cmp"
	tail -n 1 "$MT_TMP/cmp" | grep -q '^not compared' || break
	echo "    attempt $attempt: not comparable, measuring again"
done

# the co-runner's rate is measured, and is at most the polluter's pace: no bursts to catch up
# after a worker held the CPU (those made it several times the target while the threads
# slept).  Less is the machine's load: a SCHED_IDLE polluter starves while other tasks run
# (34 MB/s of 300 was seen with other tests running beside this one).
check natural_corunner_rate_measured json "$MT_TMP/nat.json" \
	"(lambda c: c['corunner_wakes'] >= 100 and 0 < c['corunner_mbps'] <= 1.1 * $RATE and c['corunner_lo_mbps'] <= c['corunner_mbps'] <= c['corunner_hi_mbps'])(d['correlation'])" \
	"{k: v for k, v in d['correlation'].items() if k.startswith('corunner')}"
# each sleep's bytes are what the pace allows over it (+ 2 steps of 16 KiB around the reads);
# a unit switched out again after its wake (a preemption) has only that period as its last,
# and is not counted in the rate either
check natural_streamed_per_sleep python3 - "$MT_TMP/nat.json" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
slept = [u for u in d["units"] if u.get("streamed_bytes") and u["last_off_ns"] > 0
         and u["switches_before"] == 1]
assert len(slept) >= 100, len(slept)
over = [u for u in slept if u["streamed_bytes"] > $RATE * u["last_off_ns"] / 1e3 * 1.2 + 32768]
assert len(over) <= 0.01 * len(slept), (len(over), len(slept), over[:3])
PY
check natural_corunner_printed grep -qE '^  co-runner: cachewalk.s polluter displaced [0-9]+ MB/s' "$MT_TMP/nat.out"
compare "$MT_TMP/grid.json" "$MT_TMP/nat.json" "$MT_TMP/probe.json" >/dev/null
check natural_report_predicts grep -qE '^  (=> the observed hot time is [0-9.]+x D\* / rate|=> not compared)' "$MT_TMP/report.out"

verdict=$(tail -n 1 "$MT_TMP/cmp")
case $verdict in
"not compared"*)
	skip natural_hot_time_within_dstar_over_rate "$verdict"
	skip natural_test_discriminates "$verdict" ;;
*)
	check natural_hot_time_within_dstar_over_rate test "$verdict" = ok
	# the same comparison with the rate wrong by 10x either way is outside: the interval is
	# narrow enough for the test to fail
	for scale in 10 0.1; do
		compare "$MT_TMP/grid.json" "$MT_TMP/nat.json" "$MT_TMP/probe.json" "$scale" \
			>"$MT_TMP/cmp.$scale"
	done
	check natural_test_discriminates sh -c "tail -n 1 '$MT_TMP/cmp.10' | grep -qx outside &&
		tail -n 1 '$MT_TMP/cmp.0.1' | grep -qx outside" ;;
esac
# MT_KEEP=DIR keeps the three run files and the comparison, for a failure to be read
if [ -n "${MT_KEEP:-}" ]; then
	mkdir -p "$MT_KEEP" && cp "$MT_TMP"/grid.json "$MT_TMP"/nat.json "$MT_TMP"/probe.json \
		"$MT_TMP"/cmp "$MT_TMP"/report.out "$MT_TMP"/nat.out "$MT_KEEP"/
fi
