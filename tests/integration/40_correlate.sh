#!/usr/bin/env bash
# Correlation and verdict on this machine: validate end to end, and the physics checks.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair correlate_tests || exit 0

# 1. validate: calibrate + controlled experiment over the default grid of 4 polluter rates +
#    verdict by rate, small sample counts.
foreign_before
out=$("$MT" validate --samples 8 --ages 50,200,1000,5000,20000 -o "$MT_TMP/v.json" 2>&1)
rc=$?
check validate_exit_0 test "$rc" = 0
# the verdict is given in the terms of the model the rates support (docs/design.md, "Bytes-driven
# or time-driven"): D* and a co-runner rate when bytes-driven, the pooled hot time by age when
# time-driven; which one a host gives depends on where its vCPUs sit, so each is checked in its
# own terms rather than expecting one of them.
check validate_prints_verdict grep -qE '^  => (the kernel.s .* (fits|is too (low|high) by|fits when)|undetermined)' <<<"$out"
check validate_prints_regime grep -qE '^  regime: +(bytes-driven|time-driven|both|mixed|not tested|too few rates)' <<<"$out"
check validate_side_by_side bash -c 'grep -q "^  calibrated hot time:" <<<"$1" && grep -q "^  kernel.s value:" <<<"$1" && grep -qE "^  (D\*|hot time by age):" <<<"$1"' _ "$out"
check validate_json json "$MT_TMP/v.json" \
	"(v := d['verdict'])['calibrated_ns'] > 0 and v['verdict'] in {'bytes-driven': ('by rate', 'undetermined'), 'time-driven': ('too low', 'about right', 'too high', 'undetermined'), 'both': ('by rate', 'too low', 'about right', 'too high', 'undetermined'), 'mixed': ('undetermined',)}.get(v['model']['regime'], ('by rate', 'undetermined')) and v['model']['rates'] == 4 and len(d['correlation']['cells']) == 5 * 4 and d['correlation']['mode'] == 'controlled' and d['correlation']['axis'] == 'displaced_bytes' and len(d['correlation']['rates']) == 4 and len(v['rates']) == 4" \
	"d['verdict']['verdict'], d['verdict'].get('model'), d['correlation']['axis'], len(d['correlation']['cells'])"
# step 1's chase, over the experiment's working set, in the run file and the text
check validate_chase json "$MT_TMP/v.json" \
	"len(c := d['calibration']['measured']['chase']['curves']) == 4 and all(x['ws_bytes'] == d['config']['cachewalk']['ws_bytes'] and x['src_cpu'] == d['calibration']['measured']['cpus'][0] for x in c)" \
	"d['calibration']['measured'].get('chase')"
check validate_chase_text grep -qE '^  1 chain   (refill [0-9.]+ ns a line|no cost)' <<<"$out"
# step 1's footprint curve and the polluter it sized (docs/design.md, "The polluter's size").
# Which level bounds the polluter depends on where the host placed the two vCPUs, so only what
# holds either way is checked: a whole curve from 16 KiB doubling, levels in order, each hint
# judged, a buffer that is a power of two of 1 MiB or more, the one the experiment used, and
# twice the level it names (4 MiB at least) when measured (less only when memory is short, which says so)
check validate_footprint json "$MT_TMP/v.json" \
	"(f := d['calibration']['footprint'])['cpu_a'] == d['calibration']['measured']['cpus'][0] and f['cpu_b'] == d['calibration']['measured']['cpus'][1] and len(f['points']) >= 2 and f['points'][0]['footprint_bytes'] == 16384 and all(b['footprint_bytes'] == 2 * a['footprint_bytes'] for a, b in zip(f['points'], f['points'][1:])) and all(p['a_ns_per_line'] > 0 and p['b_after_a_ns_per_line'] > 0 for p in f['points']) and all(a['capacity_bytes'] < b['capacity_bytes'] for a, b in zip(f['levels'], f['levels'][1:])) and f['readable'] == (len(f['levels']) > 0) and all(h['state'] in ('seen', 'not seen', 'beyond the curve') for h in f['hints']) and f['wall_s'] < 10" \
	"d['calibration'].get('footprint')"
check validate_polluter_sized json "$MT_TMP/v.json" \
	"(f := d['calibration']['footprint'])['polluter_source'] in ('measured', 'all levels shared', 'no level read') and (p := f['polluter_bytes']) >= 1 << 20 and p & (p - 1) == 0 and p == d['config']['cachewalk']['polluter_bytes'] and (p == f['sized_bytes'] or f['capped_why'] is not None) and (f['polluter_source'] != 'measured' or f['sized_bytes'] == max(2 * f['levels'][f['polluter_level']]['capacity_bytes'], 4 << 20) and not f['levels'][f['polluter_level']]['shared'] and all(x['shared'] for x in f['levels'][f['polluter_level'] + 1:]))" \
	"d['calibration'].get('footprint')"
check validate_polluter_line grep -qE '^polluter: [0-9.]+ [KMG]iB, ' <<<"$out"

# 1b. Sampling until it decides (docs/design.md): whole rounds only, each look recorded, the
#     last look the run's verdict, every interval at 99 %.  What ends it (a decided look, the
#     budget, the last look) depends on the host; that each cell got exactly the rounds the
#     sequence says, and that the file's verdict is its last look's, does not.
out=$("$MT" validate --budget 15 --ages 50,200,1000,5000,20000 -o "$MT_TMP/seq.json" 2>&1)
check sequence_exit_0 test "$?" = 0
check sequence_config json "$MT_TMP/seq.json" \
	"d['config']['budget_s'] == 15 and d['config']['max_looks'] == 5 and abs(d['config']['level'] - 0.99) < 1e-9 and abs(d['correlation']['level'] - 0.99) < 1e-9" \
	"d['config']"
python3 - "$MT_TMP/seq.json" >"$MT_TMP/seq.check" 2>&1 <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
q = d["verdict"]["sequence"]
looks = q["looks"]
assert 1 <= len(looks) <= 5, f"{len(looks)} looks"
rounds = [l["rounds"] for l in looks]
assert rounds == sorted(set(rounds)) and rounds[-1] == q["rounds"], f"looks at {rounds}, {q['rounds']} rounds"
decided = ("too low", "about right", "too high", "by rate", "not applicable")
# a look ends it when decided and its interval spans 2x at most (span null: open)
precise = lambda l: l["verdict"] in decided and l["span"] is not None and l["span"] <= 2
assert (q["ended_by"] == "decided") == precise(looks[-1]), (q, looks[-1])
assert q["ended_by"] in ("decided", "budget", "looks", "rounds"), q["ended_by"]
assert not any(precise(l) for l in looks[:-1]), "a decided look did not end it"
assert d["verdict"]["verdict"] == looks[-1]["verdict"], (d["verdict"]["verdict"], looks[-1])
# every (age, rate, arm) cell got exactly the rounds the sequence ran
cells = collections.Counter((u["nominal_age_ns"], u["rate_mbps"], u["tag"]) for u in d["units"] if u["tag"] in (3, 4))
assert len(cells) == 5 * 4 * 2 and set(cells.values()) == {q["rounds"]}, (len(cells), set(cells.values()), q["rounds"])
assert max(u["round"] for u in d["units"] if u["tag"] in (3, 4)) == q["rounds"] - 1
print(f"    {len(looks)} looks at {rounds} rounds, ended by {q['ended_by']}: {looks[-1]['verdict']}")
PY
check sequence_rounds_and_looks bash -c 'cat "$1"; ! grep -q Error "$1"' _ "$MT_TMP/seq.check"
check sequence_text bash -c 'grep -qE "^  look 1: [0-9]+ rounds, [0-9.]+ s in: " <<<"$1" && grep -qE "^  sampling: +[0-9]+ rounds? of every cell, [0-9] looks? within a budget of 15 s" <<<"$1" && grep -q "at 99 %, each look.s level" <<<"$1" && ! sed -n "/^verdict\$/,\$p" <<<"$1" | grep -q "95 % interval"' _ "$out"
# every trial's displaced bytes are the polluter's own: no more than its rate allows over the
# time away (+ 128 KiB: the 16 KiB steps of its pacing around the two reads, and the few a
# SCHED_IDLE polluter can run at the previous trial's pace in a gap of the worker's on A
# before it sees the new rate: a CI run saw 96 KiB in 14 µs at 1 GB/s), and growing with the
# age at each rate.  A trial switched out again after its wake (a preemption under load) has
# only that last period as last_off_ns, not its whole time away: left out (a loaded run saw
# 19 MB "in 45 µs").  The polluter runs SCHED_IDLE, only when CPU A is otherwise idle: beside
# a CPU-bound process on A it displaced nothing in some cells ([180224, 0, 0, 0, 4194304]
# bytes at 5 GB/s), and the check is gated on an idle CPU (tests/lib.sh, check_needs_idle).
check_needs_idle validate_displaced_bytes_measured python3 - "$MT_TMP/v.json" <<'PY'
import json, sys, statistics
d = json.load(open(sys.argv[1]))
trials = [u for u in d["units"] if u["tag"] in (3, 4)]
assert trials and all(u["round"] < 8 for u in trials), "rounds"
judged = [u for u in trials if u["rate_mbps"] > 0 and u["last_off_ns"] > 0 and u["switches_before"] == 1]
assert len(judged) >= 0.5 * len([u for u in trials if u["rate_mbps"] > 0]), "few trials switched out once"
for u in judged:
    allowed = u["rate_mbps"] * u["last_off_ns"] / 1e3 * 1.2 + 131072
    assert u["streamed_bytes"] <= allowed, (u["rate_mbps"], u["last_off_ns"], u["streamed_bytes"])
cells = d["correlation"]["cells"]
for rate in {c["rate_mbps"] for c in cells}:
    disp = [c["displaced_bytes"] for c in sorted(cells, key=lambda c: c["age_ns"]) if c["rate_mbps"] == rate]
    assert all(b >= a * 0.9 for a, b in zip(disp, disp[1:])), (rate, disp)
    assert max(disp) <= d["correlation"]["polluter_footprint_bytes"]
print("ok")
PY
# every migrated unit's migration was seen by the real tracepoint, as an affinity move
check validate_migrations_seen json "$MT_TMP/v.json" \
	"d['correlation']['unseen_migrations'] == 0 and all(u['mig_cause'] == 'affinity' for u in d['units'] if u['tag'] == 3)"
check validate_units_complete json "$MT_TMP/v.json" \
	"d['stats']['units_lost'] == 0 and d['stats']['units'] == len(d['units']) and len([u for u in d['units'] if u['tag'] in (3, 4)]) == 5 * 4 * 2 * 8"

# 2. Physics.  Working set several times the L1 but within the L2: a migration costs a
#    refill at the smallest age; a 4 KiB set costs next to nothing (measured side by side).
#    (On this VM the host places the two vCPUs near or far from each other and changes its
#    mind over minutes: the cost at 50 µs has been seen at ~15 µs and at ~430 µs for 256 KiB.
#    Both are "clearly positive" with 30 samples; the checks hold in either placement.)
#    The host can change the placement in the middle of a run, so a measurement that fails
#    is taken again, up to 3 times; each attempt is judged by the same bound.  The rule
#    (docs/testing.md, "No flakes"): false failures (p)^3 for a move of the vCPUs inside
#    one attempt with chance p; no two attempts in a row have been seen disturbed.
l2_costs='d["correlation"]["cells"][0]["migration_cost_ns"] > 0 and d["correlation"]["cells"][0]["migration_cost_hi_ns"] > 0'
for attempt in 1 2 3; do
	"$MT" run -o "$MT_TMP/l2.json" cachewalk --controlled --samples 30 --ws 256K --ages 50 >/dev/null 2>&1
	json "$MT_TMP/l2.json" "$l2_costs" && break
	echo "    256 KiB attempt $attempt: no cost measured, measuring again"
done
"$MT" run -o "$MT_TMP/4k.json" cachewalk --controlled --samples 30 --ws 4K --ages 50 >/dev/null 2>&1
check l2_ws_costs_at_smallest_age json "$MT_TMP/l2.json" "$l2_costs"
python3 - "$MT_TMP/l2.json" "$MT_TMP/4k.json" >"$MT_TMP/ws.check" <<'PY'
import json, sys
big = json.load(open(sys.argv[1]))["correlation"]["cells"][0]["migration_cost_ns"]
small = json.load(open(sys.argv[2]))["correlation"]["cells"][0]["migration_cost_ns"]
print("256 KiB: %.1f µs, 4 KiB: %.1f µs at the smallest age" % (big / 1e3, small / 1e3))
# near zero: a 4 KiB refill is 64 lines; under 20 µs (a third of a warm 256 KiB unit here),
# and under the L2-sized set's whenever that one is clearly above it
print("ok" if abs(small) < 20e3 and (big < 40e3 or small < 0.25 * big) else "differ")
PY
sed 's/^/    /' "$MT_TMP/ws.check"
check ws_4k_near_zero grep -qx ok "$MT_TMP/ws.check"

# 3. With the polluter on, the cost falls toward zero as age grows: at the largest age it is
#    under 20 % of the cost at the smallest, or its interval contains zero.  The largest age
#    is 100 ms: when the host puts the two vCPUs far apart, the polluter on CPU A has been
#    seen to leave a third of the set warm after 30 ms (stayed ~180 µs, migrated ~440 µs).
falls="(lambda c: c[-1]['migration_cost_ns'] < max(0.2 * max(x['migration_cost_ns'] for x in c), 30e3) or c[-1]['migration_cost_lo_ns'] <= 0 <= c[-1]['migration_cost_hi_ns'])(d['correlation']['cells'])"
for attempt in 1 2 3; do
	"$MT" run -o "$MT_TMP/pol.json" cachewalk --controlled --samples 12 --polluter 0:400 --ages 500,2000,8000,30000,100000 >/dev/null 2>&1
	json "$MT_TMP/pol.json" "$falls" && break
	echo "    polluter attempt $attempt: cost at the largest age still high, measuring again"
done
check polluter_cost_falls json "$MT_TMP/pol.json" "$falls"
# and the same-CPU arm itself decays: the polluter evicts what the task left on CPU A
check polluter_evicts json "$MT_TMP/pol.json" \
	"(lambda c: c[-1]['penalty_stayed_ns'] > c[0]['penalty_stayed_ns'] + 0.5 * d['correlation']['baseline_unit_ns'])(d['correlation']['cells'])"

# 3b. D* is the machine's, the hot time the rate's: at two polluter rates 10x apart, where the
#     cost falls it falls at the same displaced bytes (the rates' D* intervals overlap) while
#     the hot time by age moves several-fold; where it does not fall within the polluter's
#     buffer (the host placed the vCPUs apart) no rate's D* is bounded above (its interval
#     reaches beyond the buffer, null in the file).  Up to 3 attempts, as
#     above: the host may change the placement in the middle of a run.
two_rates="(lambda r: (all(x['dstar_state'] == 'found' for x in r) and max(x['dstar_lo_bytes'] or 0 for x in r) <= min(float('inf') if x['dstar_hi_bytes'] is None else x['dstar_hi_bytes'] for x in r) and r[0]['hot_state'] in ('found', 'above range') and r[0]['hot_ns'] >= 3 * (r[1]['hot_ns'] or 0)) or (d['correlation']['regime'] == 'beyond' and all(x['dstar_state'] != 'found' or x['dstar_hi_bytes'] is None for x in r)))(sorted(d['correlation']['rates'], key=lambda x: x['rate_mbps']))"
for attempt in 1 2 3; do
	"$MT" validate --rates 300,3000 --samples 12 --ages 50,100,200,500,1000,2000,5000,10000 \
		-o "$MT_TMP/two.json" >"$MT_TMP/two.out" 2>&1
	json "$MT_TMP/two.json" "$two_rates" && break
	echo "    two-rate attempt $attempt: the rates disagree, measuring again"
done
check dstar_same_at_rates_10x_apart json "$MT_TMP/two.json" "$two_rates" \
	"[(x['rate_mbps'], x['dstar_state'], x['dstar_lo_bytes'], x['dstar_hi_bytes'], x['hot_ns']) for x in d['correlation']['rates']], d['correlation']['regime']"
sed -n 's/^    \([0-9].*achieved.*\)/    \1/p; /^  D\*, /p' "$MT_TMP/two.out" | sed 's/^/    /'

# 4. Natural: the scheduler decides; every unit after a real migration is joined.  Its moves
#    need an idle CPU to go to: beside a CPU-bound process none came (tests/lib.sh,
#    check_needs_idle).
foreign_before
"$MT" run -o "$MT_TMP/nat.json" cachewalk --threads 3 --load 2 --sleep exp:1000 --duration 2 >/dev/null 2>&1
check natural_joined json "$MT_TMP/nat.json" \
	"d['correlation']['mode'] == 'natural' and d['correlation']['stayed_units'] > 0 and 'verdict' in d"
check_needs_idle natural_units_after_moves json "$MT_TMP/nat.json" \
	"d['correlation']['migrated_units'] > 0" "d['correlation']['migrated_units'], d['stats']['by_cause']"
check natural_join_matches_records json "$MT_TMP/nat.json" \
	"(lambda pids: sum(u['migs_before'] + u['migs_during'] for u in d['units']) <= sum(1 for m in d['migrations'] if m['pid'] in pids))({u['pid'] for u in d['units']})"

# cachewalk timed its units itself (the unit log, no probes), and the join by time is exact:
# every migration of a unit thread up to its last unit is in exactly one unit's counts, a unit
# with nothing inside it began and ended on one CPU, and a unit after a migration began on
# the CPU it moved to (with a move inside it, its last move before it is looked up).
check natural_units_self_timed json "$MT_TMP/nat.json" \
	"d['meta']['unit'].startswith('unit-log:') and d['stats']['units'] == len(d['units']) > 0 and d['stats']['units_lost'] == 0 and d['stats']['offcpu_records'] > 0 and d['stats']['offcpu_records_lost'] == 0"
python3 - "$MT_TMP/nat.json" >"$MT_TMP/join.check" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
last = {}
for u in d["units"]:
    last[u["pid"]] = max(last.get(u["pid"], 0), u["end_ns"])
migs = sum(1 for m in d["migrations"] if m["pid"] in last and m["ts_ns"] <= last[m["pid"]])
joined = sum(u["migs_before"] + u["migs_during"] for u in d["units"])
moved = [u for u in d["units"] if not u["switches_during"] and not u["migs_during"]
         and u["cpu_start"] != u["cpu_end"]]
# mig_dst_cpu is the last move before the unit's end (as the probe path reports it): for a
# unit with a move inside, the CPU it began on is the last move's before its start; a move
# between its clock read and its CPU read lies inside it and may be where it began
def start_cpus(u):
    mine = [m for m in d["migrations"] if m["pid"] == u["pid"] and m["ts_ns"] <= u["end_ns"]]
    if not u["migs_during"]:
        return {u["mig_dst_cpu"]}
    before = [m for m in mine if m["ts_ns"] <= u["start_ns"]]
    return ({before[-1]["dst_cpu"]} if before else set()) | {
        m["dst_cpu"] for m in mine if m["ts_ns"] > u["start_ns"]}
wrong = [u for u in d["units"] if u["migs_before"] and u["cpu_start"] not in start_cpus(u)]
print("%d migrations of unit threads, %d in units' counts; %d clean units changed CPU, "
      "%d units after a move began elsewhere" % (migs, joined, len(moved), len(wrong)))
print("ok" if migs == joined and not moved and not wrong else "differ")
# what a failure needs to be read: each odd unit against its thread's migrations nearby
for u in (moved + wrong)[:5]:
    near = [(m["ts_ns"] - u["start_ns"], m["src_cpu"], m["dst_cpu"], m["cause"])
            for m in d["migrations"] if m["pid"] == u["pid"]
            and -5_000_000 < m["ts_ns"] - u["start_ns"] < u["end_ns"] - u["start_ns"] + 5_000_000]
    print("unit pid %d cpu %d->%d, %d ns, migs before/during %d/%d, switches %d/%d, last move "
          "to %s; migrations (ns from its start, src, dst, cause): %s" % (
              u["pid"], u["cpu_start"], u["cpu_end"], u["end_ns"] - u["start_ns"],
              u["migs_before"], u["migs_during"], u["switches_before"], u["switches_during"],
              u.get("mig_dst_cpu"), near))
PY
sed 's/^/    /' "$MT_TMP/join.check"
check natural_join_exact grep -qx ok "$MT_TMP/join.check"

# --unit times from outside, and says what its probes add to each unit on this machine.
"$MT" run -o "$MT_TMP/probed.json" --unit "$MT_ROOT/.output/workloads/cachewalk:cachewalk_unit" \
	-- "$MT_ROOT/.output/workloads/cachewalk" --duration 1 >"$MT_TMP/probed.txt" 2>&1
check unit_probe_cost_measured json "$MT_TMP/probed.json" \
	"d['meta']['unit_probe_cost_ns'] is not None and d['meta']['unit_probe_cost_ns'] > 0 and d['stats']['units'] > 0"
check unit_probe_cost_printed grep -qE "^  probing: each unit is inflated by ~[0-9.]+ .?s \(uprobe \+ uretprobe" "$MT_TMP/probed.txt"

# 5. The sanitizer build runs the whole correlation on real data.
if [ -x "$MT_SAN" ]; then
	check correlate_sanitizers "$MT_SAN" run cachewalk --controlled --samples 5 --ages 50,1000
else
	fail correlate_sanitizers "no sanitizer build at $MT_SAN (make san)"
fi
