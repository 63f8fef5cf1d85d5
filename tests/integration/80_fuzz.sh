#!/usr/bin/env bash
# The parsers under libFuzzer with ASan+UBSan, a few seconds each: CPU lists, sizes,
# durations, the CPUID decoder, the sysfs topology reader, --unit's ELF symbol check (and
# any other tests/fuzz/fuzz_*.c).  Each corpus, crashes found earlier among it, is replayed
# first.  `make fuzz` runs them longer.
. "$(dirname "$0")/../lib.sh"

if ! ls "$MT_ROOT"/.output/fuzz/fuzz_* >/dev/null 2>&1; then
	fail fuzzers "no fuzzers in .output/fuzz (make fuzzers; clang and libclang-rt-14-dev)"
	exit 0
fi
MT_RESULTS=$MT_RESULTS bash "$MT_ROOT/tests/fuzz/run.sh" "${MT_FUZZ_SECONDS:-8}"
