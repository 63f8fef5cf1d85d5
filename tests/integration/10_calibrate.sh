#!/usr/bin/env bash
# migtrace calibrate on this machine: the matrix, the formats, the errors.
. "$(dirname "$0")/../lib.sh"

# The calibrations here run at nice -20 (root): their checks are of migtrace's figures and
# formats, not of the machine's load.  Beside a CPU-bound process at nice 0 every chase
# trial was switched out and tried again, and this script took 173 s, not 7.
[ "$(id -u)" = 0 ] && renice -n -20 -p $$ >/dev/null

ncpu=$(nproc)

if [ "$ncpu" -ge 2 ]; then
	out=$("$MT" calibrate --cpus 0,1 --reps 5 -o "$MT_TMP/cal.json" -q 2>&1)
	rc=$?
	check calibrate_exit_0 test "$rc" = 0
	# The calibration file (docs/calibration-file.md): the run file's calibration.measured
	# members and spelling, and calibrate's own.
	check calibrate_json_2x2_positive json "$MT_TMP/cal.json" \
		'd["schema"] == "migtrace.calibrate/3" and d["chase"] is None and len(d["cells"]) == 4 and all(c["cost_ns"] > 0 and c["fill_median_ns"] > 0 and c["fill_max_ns"] >= c["fill_median_ns"] for c in d["cells"]) and d["cpus"] == [0, 1]'
	check calibrate_json_hot_time json "$MT_TMP/cal.json" \
		'd["hot_seed_ns"] == min(c["cost_ns"] for c in d["cells"] if c["src_cpu"] != c["dst_cpu"]) and d["hot_robust_ns"] > 0 and d["method"] == 2004 and d["reps"] == 5'
	check calibrate_cost_is_max_x6 json "$MT_TMP/cal.json" \
		'all(c["cost_ns"] == 6 * c["fill_max_ns"] for c in d["cells"])'
	# The robust cell: the median of the fills at most 10 % above the anchor (the lower
	# quartile of 20 blocks' 10th percentiles), x 6 (robust_ns is rounded to the ns); the hot
	# time is its minimum.
	check calibrate_robust_is_undisturbed_median_x6 json "$MT_TMP/cal.json" \
		'(f := d["fill_statistics"])["anchor_blocks"] == 20 and f["anchor_quantile"] == 0.1 and f["anchor_block_quantile"] == 0.25 and f["disturbed_above_anchor_pct"] == 10 and all(abs(c["robust_ns"] - 6 * c["fill_undisturbed_median_ns"]) <= 3 and c["fill_min_ns"] <= c["fill_anchor_ns"] <= c["fill_median_ns"] * 1.1 and 1 <= c["fills_undisturbed"] <= d["reps"] and c["fill_min_ns"] <= c["fill_undisturbed_median_ns"] <= 1.1 * c["fill_anchor_ns"] + 2 for c in d["cells"])' \
		'd["cells"]'
	check calibrate_robust_hot_is_min json "$MT_TMP/cal.json" \
		'd["hot_robust_ns"] == min(c["robust_ns"] for c in d["cells"] if c["src_cpu"] != c["dst_cpu"])'
	check calibrate_json_interval json "$MT_TMP/cal.json" \
		'0 < (f := d["fill_statistics"])["hot_robust_lo_ns"] <= f["hot_robust_hi_ns"] and 0 <= f["disturbed_pct"] <= 100' \
		'd["fill_statistics"]'
	check calibrate_text_interval grep -qE '^hot time, 95 % interval: [0-9.]+ (ns|µs|ms) to [0-9.]+ (ns|µs|ms) \(block bootstrap' <<<"$out"
	check calibrate_text_disturbed grep -qE '^disturbed fills: [0-9.]+ % \(median over cells\)' <<<"$out"
	check calibrate_json_kernel_value json "$MT_TMP/cal.json" \
		'd["tunable"]["value_ns"] > 0'
	check calibrate_text_has_units grep -qE '^hot time: [0-9.]+ (ns|µs|ms|s) ' <<<"$out"
	check calibrate_text_kernel_beside grep -q "^kernel's value: " <<<"$out"
	check calibrate_no_tmp_left test -z "$(ls -A "$MT_TMP" | grep -v '^cal.json$')"

	# -v: each repetition's samples on stderr, the very fills the cells are made of
	"$MT" calibrate --cpus 0,1 --reps 4 -v -q -o "$MT_TMP/verbose.json" \
		>/dev/null 2>"$MT_TMP/verbose.err"
	check calibrate_verbose_samples python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
reps = [l for l in open(sys.argv[2]) if l.startswith("calibrate: repetition ")]
assert len(reps) == 4, reps
got = {}
for l in reps:
    for a, b, ns in re.findall(r" (\d+)->(\d+) (\d+)", l.split(":", 2)[2]):
        got.setdefault((int(a), int(b)), []).append(int(ns))
for c in d["cells"]:
    s = got[(c["src_cpu"], c["dst_cpu"])]
    assert len(s) == 4 and max(s) == c["fill_max_ns"] and min(s) == c["fill_min_ns"], (c, s)
' "$MT_TMP/verbose.json" "$MT_TMP/verbose.err"
	check calibrate_quiet_without_v bash -c '! "$1" calibrate --cpus 0,1 --reps 2 -q 2>&1 |
		grep -q "^calibrate: repetition"' _ "$MT"

	seed=$("$MT" calibrate --cpus 0,1 --reps 3 --format=seed 2>&1)
	check seed_format_header grep -qE '^migration cost matrix \(cache_size: [0-9]+, cpu: -?[0-9]+ MHz\):$' <<<"$seed"
	check seed_format_cols grep -qxF '        [00]  [01]' <<<"$seed"
	check seed_format_rows grep -qE '^\[01\]: ( [ 0-9]{3}\.[0-9]){2}$' <<<"$seed"
	check seed_format_min grep -qE '^min_delta: [0-9]+$' <<<"$seed"
	md=$(sed -n 's/^min_delta: //p' <<<"$seed")
	check seed_format_decay grep -qxF "using cache_decay nsec: $md ($((md >> 20)) msec)" <<<"$seed"

	s5=$("$MT" calibrate --cpus 0,1 --method 2005 --format=seed 2>&1)
	check seed_2005_format grep -qE '^\| cacheflush times \[1\]: [0-9]+\.[0-9] \([0-9-]+\)$' <<<"$s5"
	check seed_2005_header grep -qE '^\| migration cost matrix \(max_cache_size: [0-9]+, cpu: -?[0-9]+ MHz\):$' <<<"$s5"
	t5=$("$MT" calibrate --cpus 0,1 --method 2005 -o "$MT_TMP/m5.json" 2>&1)
	check method_2005_says_so grep -q "^method 2005" <<<"$t5"
	# the undisturbed-fill statistics and their interval are the 2004 method's alone
	check method_2005_no_interval json "$MT_TMP/m5.json" \
		'd["fill_statistics"] is None and d["size_search"]["factor"] == 128 and len(d["size_search"]["distances"]) == 1 and d["hot_seed_ns"] == d["size_search"]["distances"][0]["cost_ns"]' \
		'{k: d.get(k) for k in ("fill_statistics", "size_search", "hot_seed_ns")}'

	sw=$("$MT" calibrate --cpus 0,1 --reps 3 --sweep-size -q -o "$MT_TMP/sweep.json" 2>&1)
	check sweep_size_table grep -q "^migration cost peaks with a" <<<"$sw"
	check sweep_size_json json "$MT_TMP/sweep.json" 'len(d["size_sweep"]) == 9'

	# The chase beside the 2004 method (docs/design.md, "The chase calibration"): it runs
	# here, and its figures are sane: a refill of 1 to 1000 ns a line, D* inside the sweep
	# with its interval, or said to lie beyond it.
	ch=$("$MT" calibrate --method chase --cpus 0,1 --reps 20 --rounds 3 -q \
		-o "$MT_TMP/chase.json" 2>&1)
	rc=$?
	check chase_exit_0 test "$rc" = 0
	check chase_json_curves json "$MT_TMP/chase.json" \
		'd["schema"] == "migtrace.calibrate/3" and d["method"] == 2004 and len(c := d["chase"]["curves"]) == 2 * 4 and [x["chains"] for x in c] == [1, 2, 4, 8] * 2 and all(x["src_cpu"] == 0 and x["dst_cpu"] == 1 for x in c) and (h := d["chase"])["trials"] == h["rounds"] * len(c) * len(c[0]["points"]) * 2 == 3 * 8 * len(c[0]["points"]) * 2' \
		'[(x["ws_bytes"], x["chains"], len(x["points"])) for x in d["chase"]["curves"]]'
	check chase_refill_a_line_sane json "$MT_TMP/chase.json" \
		'all(1 <= x["max_ns_per_line"] <= 1000 for x in d["chase"]["curves"] if x["chains"] == 1 and x["ws_bytes"] == d["cache_bytes"] // 4)' \
		'[(x["ws_bytes"], x["chains"], x["max_ns_per_line"]) for x in d["chase"]["curves"]]'
	check chase_dstar_in_sweep_or_beyond json "$MT_TMP/chase.json" \
		'all((x["dstar_state"] == "found" and (p := x["points"])[0]["displaced_bytes"] <= x["dstar_bytes"] <= p[-1]["displaced_bytes"] and (x["dstar_lo_bytes"] is None or x["dstar_lo_bytes"] <= x["dstar_bytes"]) and (x["dstar_hi_bytes"] is None or x["dstar_bytes"] <= x["dstar_hi_bytes"])) or (x["dstar_state"] == "above range" and x["dstar_bytes"] == x["points"][-1]["displaced_bytes"]) for x in d["chase"]["curves"] if x["chains"] == 1 and x["ws_bytes"] == d["cache_bytes"] // 4)' \
		'[(x["dstar_state"], x["dstar_bytes"], x["dstar_lo_bytes"], x["dstar_hi_bytes"]) for x in d["chase"]["curves"]]'
	check chase_text_says_dstar bash -c 'grep -qE "^  1 chain   (refill [0-9.]+ ns a line \([0-9.]+ (ns|µs|ms) a migration of the set\), .*D\* ([0-9.]+ [KMG]iB|beyond [0-9.]+ [KMG]iB)|no cost)" <<<"$1" && grep -qE "^the x 6 assumes that the tasks sharing a CPU displace its [0-9.]+ [KMG]iB cache within the hot time: [0-9.]+ [MG]B/s" <<<"$1" && grep -qE "^D from [0-9.]+ [KMG]iB in steps of 2 to " <<<"$1"' _ "$ch"
	# the 2004 figures beside it are the 2004 method's, as without the chase
	check chase_keeps_2004 json "$MT_TMP/chase.json" \
		'd["reps"] == 20 and all(c["cost_ns"] == 6 * c["fill_max_ns"] for c in d["cells"]) and d["hot_robust_ns"] > 0'
	# the seed's format is the seed's, chase or not
	seedc=$("$MT" calibrate --cpus 0,1 --reps 3 --format=seed 2>&1)
	check seed_format_no_chase bash -c '! grep -q "chase\|x 6 assumes" <<<"$1"' _ "$seedc"

	if [ -x "$MT_SAN" ]; then
		check calibrate_sanitizers "$MT_SAN" calibrate --cpus 0,1 --reps 3 -q -o "$MT_TMP/san.json"
		check chase_sanitizers "$MT_SAN" calibrate --method chase --cpus 0,1 --reps 3 \
			--rounds 2 --ws 64K -q -o "$MT_TMP/san-chase.json"
	else
		fail calibrate_sanitizers "no sanitizer build at $MT_SAN (make san)"
	fi
else
	skip calibrate_pairs "one CPU: migration cost needs two"
fi

one=$("$MT" calibrate --cpus 0 --reps 3 2>&1)
check one_cpu_says_two_needed grep -q "migration cost needs two CPUs" <<<"$one"
check one_cpu_self_cost grep -q "hot time: none" <<<"$one"

# Bad input: one clear line naming the token, exit 2.
expect_usage() {
	local name=$1 pattern=$2 out rc
	shift 2
	out=$("$MT" calibrate "$@" 2>&1)
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$pattern" <<<"$out"; then pass "$name"
	else fail "$name" "rc=$rc out=$(echo "$out" | head -n 2 | tr '\n' ' ')"; fi
}
expect_usage bad_cpu_token "'x'" --cpus 0,x
expect_usage offline_cpu "CPU 999 is not online" --cpus 0,999
expect_usage bad_size "'12Q'" --size 12Q
expect_usage huge_size "would not fit" --size 1T
expect_usage zero_reps "'0'" --reps 0
expect_usage bad_method "'2006'" --method 2006
expect_usage zero_rounds "'0'" --method chase --rounds 0
expect_usage tiny_ws "'1K'" --method chase --ws 1K
expect_usage huge_ws "would not fit" --method chase --ws 1T
expect_usage rounds_without_chase "give --method chase" --rounds 3
expect_usage chase_sweep_size "--sweep-size repeats the 2004 method alone" --method chase --sweep-size
expect_usage chase_seed_format "has no chase" --method chase --format seed

# Topology from a fake 2-socket tree: the per-core L2 is chosen, 5/3 x 256 KiB buffer.
fake=$MT_TMP/sys
for cpu in 0 1 2 3; do
	d=$fake/devices/system/cpu/cpu$cpu
	mkdir -p "$d/topology" "$d/cache/index0" "$d/cache/index1"
	echo $((cpu / 2)) >"$d/topology/core_id"; echo 0 >"$d/topology/physical_package_id"
	echo "$((cpu / 2 * 2))-$((cpu / 2 * 2 + 1))" >"$d/topology/thread_siblings_list"
	echo 2 >"$d/cache/index0/level"; echo Unified >"$d/cache/index0/type"
	echo 256K >"$d/cache/index0/size"; cat "$d/topology/thread_siblings_list" >"$d/cache/index0/shared_cpu_list"
	echo 3 >"$d/cache/index1/level"; echo Unified >"$d/cache/index1/type"
	echo 8192K >"$d/cache/index1/size"; echo 0-3 >"$d/cache/index1/shared_cpu_list"
done
echo 0-3 >"$fake/devices/system/cpu/online"
dry=$("$MT" calibrate --root "$fake" --dry-run 2>&1)
check fake_tree_percore_l2 grep -q "L2 Unified 256 KiB of CPU 0 (from sysfs), the largest per-core cache (buffer 427 KiB)" <<<"$dry"
dry=$("$MT" calibrate --root "$fake" --level 3 --dry-run 2>&1)
check fake_tree_level3 grep -q "L3 Unified 8 MiB of CPU 0" <<<"$dry"
check fake_tree_pairs grep -q "16 ordered pairs" <<<"$dry"
# the chase's plan on that tree: a pair per distance (SMT siblings, another core of the
# LLC), 2 working sets, 4 chain counts; D from 16 KiB to 4 x its 8 MiB L3
dry=$("$MT" calibrate --root "$fake" --method chase --cpus 0,1,2 --dry-run 2>&1)
check fake_tree_chase_plan grep -qF "the chase: 16 curves x 12 displacements x 2 arms x 7 rounds, D to 4 x the LLC, the L3 Unified 8 MiB (sysfs)" <<<"$dry"

# Where the cache size came from.  sysfs when this machine's sysfs lists caches (most hosts),
# else CPUID on x86 (VMs without /sys/devices/system/cpu/cpuN/cache); never a silent guess.
case $(uname -m) in x86_64 | i?86) x86=1 ;; *) x86=0 ;; esac
if [ -e /sys/devices/system/cpu/cpu0/cache/index0 ]; then want_src=sysfs; else want_src=cpuid; fi
real=$("$MT" calibrate --cpus 0 --reps 3 -o "$MT_TMP/src.json" -q 2>&1)
rc=$?
if [ "$want_src" = cpuid ] && [ "$x86" = 0 ]; then
	check real_no_sizes_asks_size bash -c '[ "$1" = 1 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -q "no cache sizes for CPU 0: sysfs lists none and CPUID is not available on this architecture; give the size with --size" <<<"$2"' _ "$rc" "$real"
else
	check real_names_source bash -c '[ "$1" = 0 ] || exit 1; case $2 in
		sysfs) grep -qE "^Calibrating .* against the L[0-9] [A-Za-z]+ [0-9.]+ [KMG]iB of CPU 0 \(from sysfs\)" <<<"$3" ;;
		cpuid) grep -qE "^Calibrating .* against the L[0-9] [A-Za-z]+ [0-9.]+ [KMG]iB of CPU 0 \(from CPUID leaf 0x[0-9a-f]+: sysfs lists no caches\)" <<<"$3" ;;
		esac' _ "$rc" "$want_src" "$real"
	check real_json_source json "$MT_TMP/src.json" \
		"d['cache_source'] == '$want_src' and d['cache_bytes'] > 0 and d['cache_cpu'] == 0 and ((d['cache_cpuid_leaf'] or '').startswith('0x') == (d['cache_source'] == 'cpuid'))" "{k: v for k, v in d.items() if k.startswith('cache')}"
fi
if [ "$ncpu" -ge 2 ]; then
	# The LLC grouping names its source, or says it is unknown; it is never made up.
	check json_llc_groups_honest json "$MT_TMP/cal.json" \
		"(d['llc']['source'] is None and d['llc']['group_of_cpu'] is None and d['groups']['agree'] is None and d['llc']['unknown_why']) or (d['llc']['source'] in ('sysfs', 'CPUID', 'sysfs+CPUID') and len(d['llc']['group_of_cpu']) == 2 and isinstance(d['groups']['agree'], bool))" \
		"(d['llc'], d['groups'], d['cache_source'])"
	check json_llc_source_follows_cache json "$MT_TMP/cal.json" \
		"d['llc']['source'] in ({'sysfs': ('sysfs',), 'cpuid': ('CPUID', None)}[d['cache_source']])" \
		"(d['llc'], d['cache_source'])"
	check text_llc_groups_named bash -c 'grep -qE "^CPU groups by measured cost: .*; ((sysfs|CPUID|sysfs\+CPUID) LLC groups: .* — (agree|differ)|sysfs/CPUID LLC groups: unknown \(.+\))$" <<<"$1"' _ "$out"
fi

# --caches sysfs: sysfs's caches, or the one-line request for --size when it lists none.
only=$("$MT" calibrate --caches sysfs --cpus 0 --dry-run 2>&1)
rc=$?
if [ "$want_src" = sysfs ]; then
	check caches_sysfs_from_sysfs bash -c '[ "$1" = 0 ] && grep -q "of CPU 0 (from sysfs)" <<<"$2"' _ "$rc" "$only"
else
	check caches_sysfs_asks_size bash -c '[ "$1" = 1 ] && [ "$2" = "migtrace calibrate: no cache sizes for CPU 0: sysfs lists none and --caches sysfs leaves CPUID out; give the size with --size (e.g. --size 1M)" ]' _ "$rc" "$only"
fi
check caches_size_overrides bash -c 'out=$("$1" calibrate --caches sysfs --size 1M --cpus 0 --dry-run 2>&1) && grep -q "against the 1 MiB cache given by --size (buffer 1.7 MiB)" <<<"$out"' _ "$MT"

# --caches cpuid: CPUID on x86, whatever sysfs lists; elsewhere one line saying why not.
cp=$("$MT" calibrate --caches cpuid --cpus 0,1 --dry-run 2>&1)
rc=$?
if [ "$x86" = 1 ]; then
	check caches_cpuid_dry_run bash -c '[ "$1" = 0 ] && grep -qE "of CPU 0 \(from CPUID leaf 0x[0-9a-f]+: --caches cpuid\)" <<<"$2" && grep -q "^dry run: " <<<"$2"' _ "$rc" "$cp"
else
	check caches_cpuid_unavailable bash -c '[ "$1" = 1 ] && grep -q "CPUID is not available on this architecture" <<<"$2"' _ "$rc" "$cp"
fi
expect_usage bad_caches "'cache'" --caches cache

# A test tree without cache directories: CPUID describes this machine, not the tree, so no
# size is taken from it; one line asks for --size, exit 1.  --size makes it work.
bare=$MT_TMP/bare
for cpu in 0 1; do
	mkdir -p "$bare/devices/system/cpu/cpu$cpu/topology"
	echo $cpu >"$bare/devices/system/cpu/cpu$cpu/topology/core_id"
done
echo 0-1 >"$bare/devices/system/cpu/online"
nc=$("$MT" calibrate --root "$bare" --dry-run 2>&1)
rc=$?
check fake_tree_no_caches_asks_size bash -c '[ "$1" = 1 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -qx "migtrace calibrate: no cache sizes for CPU 0: sysfs lists none under .*, and CPUID describes this machine, not that tree (--caches cpuid would use it); give the size with --size (e.g. --size 1M)" <<<"$2"' _ "$rc" "$nc"
nc=$("$MT" calibrate --root "$bare" --size 512K --dry-run 2>&1)
check fake_tree_no_caches_size_given grep -q "against the 512 KiB cache given by --size (buffer 853 KiB)" <<<"$nc"
nc=$("$MT" calibrate --root "$bare" --level 2 --dry-run 2>&1)
check fake_tree_no_caches_level_asks_size bash -c '[ "$1" = 1 ] && grep -q "give the size with --size" <<<"$2"' _ "$?" "$nc"

# The fake 2-socket tree's sysfs LLC groups reach the JSON (CPUs 0-1 exist on every host
# that runs this part): {0-3} on one LLC, so CPUs 0 and 1 are one sysfs group.
if [ "$ncpu" -ge 2 ]; then
	"$MT" calibrate --root "$fake" --cpus 0,1 --reps 3 -q -o "$MT_TMP/fake.json" >/dev/null 2>&1
	check fake_tree_llc_groups_json json "$MT_TMP/fake.json" \
		"d['llc']['source'] == 'sysfs' and d['llc']['group_of_cpu'] == [0, 0] and d['cache_source'] == 'sysfs' and d['cache_scope'] == 'per-core' and d['cache_level'] == 2"
fi

# validate resolves the cache as calibrate does, before any BPF: bad input is exit 2, and a
# machine with no cache sizes stops with the same one-line request.
if [ "$ncpu" -lt 2 ]; then
	skip validate_cache "one CPU: validate needs two"
else
	vo=$("$MT" validate --size 12Q 2>&1)
	check validate_bad_size bash -c '[ "$1" = 2 ] && grep -qF -- "--size: '"'"'12Q'"'"'" <<<"$2"' _ "$?" "$vo"
fi
if [ "$ncpu" -lt 2 ]; then
	:
elif [ "$want_src" = cpuid ]; then
	vo=$("$MT" validate --caches sysfs 2>&1)
	check validate_no_sizes_asks_size bash -c '[ "$1" = 1 ] && [ "$2" = "migtrace validate: no cache sizes for CPU 0: sysfs lists none and --caches sysfs leaves CPUID out; give the size with --size (e.g. --size 1M)" ]' _ "$?" "$vo"
else
	skip validate_no_sizes_asks_size "sysfs lists caches here; the unit tests cover a machine without"
fi
