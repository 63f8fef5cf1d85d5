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
# The run-file reader parses what users hand `migtrace report`, hostile files included: it
# gets 2.5x the time of the others (20 s of the tests' 8; 45_report ran it 20 s on its own
# before, beside this run's 8 of the same fuzzer).
seconds_of() { if [ "$1" = fuzz_run_file ]; then echo $((seconds * 5 / 2)); else echo "$seconds"; fi; }
results=${MT_RESULTS:-/dev/null}
work=$(mktemp -d "${TMPDIR:-/tmp}/migtrace-fuzz.XXXXXX")
# Removed on every way out: a fuzzer's own files are in its TMPDIR inside it, since a
# fuzzer that crashes or times out leaves by _Exit(), past its atexit() clean-up.
# The fuzzers run as jobs: a signal ends them, and waits for them, before the removal.
trap 'rm -rf "$work"' EXIT
stop_jobs() {
	local j
	for j in $(jobs -p); do pkill -TERM -P "$j"; kill "$j"; done 2>/dev/null
	wait
	exit "$1"
}
trap 'stop_jobs 129' HUP
trap 'stop_jobs 130' INT
trap 'stop_jobs 143' TERM
status=0

# fuzz_one BIN: one fuzzer over its corpus; its lines go to stdout and $results, its status
# is the fuzzer's.
fuzz_one() {
	local bin=$1 name corpus rc runs artifact t0 secs
	name=$(basename "$bin")
	secs=$(seconds_of "$name")
	corpus=tests/fuzz/corpus/$name
	mkdir -p "$corpus" "$work/$name/new" "$work/$name/crash" "$work/$name/tmp"
	t0=${EPOCHREALTIME/[.,]/}
	TMPDIR=$work/$name/tmp "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$work/$name/crash/" "$work/$name/new" \
		"$corpus" >"$work/$name/log" 2>&1
	rc=$?
	# its seconds, for tests/run.sh's list of the slowest
	t0=$((${EPOCHREALTIME/[.,]/} - t0))
	printf '%d.%02d\tcheck\t%s\n' $((t0 / 1000000)) $((t0 % 1000000 / 10000)) "$name" \
		>>"${MT_TIMES:-/dev/null}"
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log")
	if [ "$rc" = 0 ]; then
		echo "  ok    $name: ${runs:-?} inputs in $secs s, $(ls "$corpus" | wc -l) in the corpus"
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
	fi
	if [ "$keep" = 1 ] && [ "$rc" = 0 ]; then
		"$bin" -merge=1 "$corpus" "$work/$name/new" >/dev/null 2>&1
	fi
	return "$rc"
}

# One fuzzer per CPU at a time (each is single-threaded), their lines in the fuzzers' order.
jobs_max=$(nproc)
bins=()
for bin in .output/fuzz/fuzz_*; do
	[ -x "$bin" ] && [ "${bin%.d}" = "$bin" ] || continue
	bins+=("$bin")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	name=$(basename "$bin")
	mkdir -p "$work/$name"
	{ fuzz_one "$bin" >"$work/$name/report" 2>&1; echo $? >"$work/$name/rc"; } &
done
wait
for bin in "${bins[@]}"; do
	name=$(basename "$bin")
	cat "$work/$name/report"
	[ "$(cat "$work/$name/rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
