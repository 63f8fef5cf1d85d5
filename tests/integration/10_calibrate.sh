#!/usr/bin/env bash
# migtrace calibrate on this machine: the matrix, the formats, the errors.
. "$(dirname "$0")/../lib.sh"

ncpu=$(nproc)

if [ "$ncpu" -ge 2 ]; then
	out=$("$MT" calibrate --cpus 0,1 --reps 5 --json "$MT_TMP/cal.json" -q 2>&1)
	rc=$?
	check calibrate_exit_0 test "$rc" = 0
	check calibrate_json_2x2_positive json "$MT_TMP/cal.json" \
		'len(d["cells"]) == 4 and all(c["cost_ns"] > 0 and c["median_ns"] > 0 and c["max_ns"] >= c["median_ns"] for c in d["cells"]) and d["cpus"] == [0, 1]'
	check calibrate_json_hot_time json "$MT_TMP/cal.json" \
		'd["hot_time_ns"] == min(c["cost_ns"] for c in d["cells"] if c["src"] != c["dst"]) and d["hot_time_robust_ns"] > 0 and d["method"] == 2004 and d["reps"] == 5'
	check calibrate_cost_is_max_x6 json "$MT_TMP/cal.json" \
		'all(c["cost_ns"] == 6 * c["max_ns"] for c in d["cells"])'
	check calibrate_json_kernel_value json "$MT_TMP/cal.json" \
		'd["kernel_migration_cost"]["value_ns"] > 0'
	check calibrate_text_has_units grep -qE '^hot time: [0-9.]+ (ns|µs|ms|s) ' <<<"$out"
	check calibrate_text_kernel_beside grep -q "^kernel's value: " <<<"$out"
	check calibrate_no_tmp_left test -z "$(ls -A "$MT_TMP" | grep -v '^cal.json$')"

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
	t5=$("$MT" calibrate --cpus 0,1 --method 2005 2>&1)
	check method_2005_says_so grep -q "^method 2005" <<<"$t5"

	sw=$("$MT" calibrate --cpus 0,1 --reps 3 --sweep-size -q --json "$MT_TMP/sweep.json" 2>&1)
	check sweep_size_table grep -q "^migration cost peaks with a" <<<"$sw"
	check sweep_size_json json "$MT_TMP/sweep.json" 'len(d["size_sweep"]) == 9'

	if [ -x "$MT_SAN" ]; then
		check calibrate_sanitizers "$MT_SAN" calibrate --cpus 0,1 --reps 3 -q --json "$MT_TMP/san.json"
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
dry=$("$MT" calibrate --sysfs-root "$fake" --dry-run 2>&1)
check fake_tree_percore_l2 grep -q "L2 Unified 256 KiB of CPU 0, the largest per-core cache (buffer 427 KiB)" <<<"$dry"
dry=$("$MT" calibrate --sysfs-root "$fake" --level 3 --dry-run 2>&1)
check fake_tree_level3 grep -q "L3 Unified 8 MiB of CPU 0" <<<"$dry"
check fake_tree_pairs grep -q "16 ordered pairs" <<<"$dry"
