#!/usr/bin/env bash
# The parsers under libFuzzer with ASan+UBSan, a few seconds each: CPU lists, sizes,
# durations, the CPUID decoder, the sysfs topology reader, --unit's ELF symbol check, the
# sched events' decoder over hostile formats, a trace-cmd capture's bytes (and any other
# tests/fuzz/fuzz_*.c).  Each corpus, crashes found earlier among it, is replayed
# first.  `make fuzz` runs them longer.  Nothing is left in /tmp, however a fuzzer ends.
. "$(dirname "$0")/../lib.sh"

# built here (make test leaves them to this script, which runs beside the kernel matrix)
if ! make -C "$MT_ROOT" -s --no-print-directory -j"$(nproc)" fuzzers >"$MT_TMP/build.log" 2>&1; then
	fail fuzzers "make fuzzers failed (clang and libclang-rt-14-dev?): $(tail -n 3 "$MT_TMP/build.log" | tr '\n' ' ')"
	exit 0
fi
if ! ls "$MT_ROOT"/.output/fuzz/fuzz_* >/dev/null 2>&1; then
	fail fuzzers "no fuzzers in .output/fuzz (make fuzzers; clang and libclang-rt-14-dev)"
	exit 0
fi
# The fuzzers' run, in a /tmp of its own where one can be made: it must leave nothing there
# (its results and times reach this run's files through descriptors opened here).  One run
# for both: the leftover check ran the fuzzers a second time, 2 s each, until 2026-12-07.
if private_tmp_ok; then
	exec 4>>"$MT_RESULTS" 5>>"${MT_TIMES:-/dev/null}"
	in_private_tmp "$MT_TMP/left" env MT_RESULTS=/dev/fd/4 MT_TIMES=/dev/fd/5 \
		bash "$MT_ROOT/tests/fuzz/run.sh" "${MT_FUZZ_SECONDS:-8}"
	exec 4>&- 5>&-
	mt_clock_restart	# run.sh reported each fuzzer itself
	check fuzz_run_leaves_no_temp bash -c '[ ! -s "$1" ] || { cat "$1"; exit 1; }' _ \
		"$MT_TMP/left"
else
	MT_RESULTS=$MT_RESULTS bash "$MT_ROOT/tests/fuzz/run.sh" "${MT_FUZZ_SECONDS:-8}"
	mt_clock_restart
	skip fuzz_run_leaves_no_temp "no /tmp of its own can be made here (unshare -m needs root)"
fi
for name in fuzz_elf_sym fuzz_topology; do
	bin=$MT_ROOT/.output/fuzz/$name
	mkdir -p "$MT_TMP/tmp-$name" "$MT_TMP/new-$name"
	TMPDIR=$MT_TMP/tmp-$name "$bin" -runs=300 "$MT_TMP/new-$name" \
		"$MT_ROOT/tests/fuzz/corpus/$name" >/dev/null 2>&1 &
	pid=$!
	wait "$pid"
	check "${name}_leaves_no_temp" bash -c '[ "$1" = 0 ] && [ -z "$(ls -A "$2")" ] &&
		! ls -d /tmp/mt-fuzz-*."$3" 2>/dev/null' _ $? "$MT_TMP/tmp-$name" "$pid"
done
