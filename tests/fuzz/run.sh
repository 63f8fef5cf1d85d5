#!/usr/bin/env bash
# Runs every fuzzer in .output/fuzz/ for SECONDS over its corpus in tests/fuzz/corpus/NAME.
# The corpus is replayed first, so every input ever checked in (crashes found earlier
# among them) is a regression test.  Without --keep (the tests) new inputs go to a
# temporary directory; with --keep (`make fuzz`) they are merged into the corpus.
# Reports "PASS fuzz_NAME" / "FAIL fuzz_NAME ..." lines to $MT_RESULTS when it is set.
set -u
cd "$(dirname "$0")/../.." || exit 1
keep=0
[ "${1:-}" = --keep ] && { keep=1; shift; }
seconds=${1:-10}
results=${MT_RESULTS:-/dev/null}
work=$(mktemp -d "${TMPDIR:-/tmp}/migtrace-fuzz.XXXXXX")
# Removed on every way out: a fuzzer's own files are in its TMPDIR inside it, since a
# fuzzer that crashes or times out leaves by _Exit(), past its atexit() clean-up.
trap 'rm -rf "$work"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
status=0

for bin in .output/fuzz/fuzz_*; do
	[ -x "$bin" ] && [ "${bin%.d}" = "$bin" ] || continue
	name=$(basename "$bin")
	corpus=tests/fuzz/corpus/$name
	mkdir -p "$corpus" "$work/$name/new" "$work/$name/crash" "$work/$name/tmp"
	TMPDIR=$work/$name/tmp "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$work/$name/crash/" "$work/$name/new" \
		"$corpus" >"$work/$name/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log")
	if [ "$rc" = 0 ]; then
		echo "  ok    $name: ${runs:-?} inputs in $seconds s, $(ls "$corpus" | wc -l) in the corpus"
		echo "PASS $name" >>"$results"
	else
		artifact=$(ls "$work/$name/crash" | head -n 1)
		echo "  FAIL  $name: exit $rc after ${runs:-?} inputs; last lines:"
		grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error' "$work/$name/log" | head -n 5 | sed 's/^/        /'
		if [ -n "$artifact" ]; then
			mkdir -p tests/fuzz/crashes
			cp "$work/$name/crash/$artifact" "tests/fuzz/crashes/$name-$artifact"
			echo "        input kept as tests/fuzz/crashes/$name-$artifact: fix the code," \
				"then move it into $corpus as a regression test"
		fi
		echo "FAIL $name exit $rc (see tests/fuzz/crashes/)" >>"$results"
		status=1
	fi
	if [ "$keep" = 1 ] && [ "$rc" = 0 ]; then
		"$bin" -merge=1 "$corpus" "$work/$name/new" >/dev/null 2>&1
	fi
done
exit $status
