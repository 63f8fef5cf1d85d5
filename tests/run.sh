#!/usr/bin/env bash
# Runs every test: unit tests (plain and ASan+UBSan builds, cmocka in TAP form), then the
# integration tests, each with default signal dispositions, every CPU, nice 0 and umask 022
# (tests/clean_start.sh).  Then the time each took: every script and kernel guest, and the
# ten slowest tests.  The last line is "N passed, N failed, N skipped".
. "$(dirname "$0")/clean_start.sh"
set -u
cd "$(dirname "$0")/.." || exit 1
results=$(mktemp /tmp/migtrace-results.XXXXXX)
times=$(mktemp /tmp/migtrace-times.XXXXXX)
export MT_RESULTS=$results MT_TIMES=$times
t_run=${EPOCHREALTIME/[.,]/}
. tests/lib.sh

echo "== unit tests"
for bin in .output/tests/unit/test_* .output/tests/unit/san/test_*; do
	[ -x "$bin" ] && [ "${bin%.d}" = "$bin" ] || continue
	tag=$(basename "$bin"); case $bin in */san/*) tag="san/$tag";; esac
	t0=${EPOCHREALTIME/[.,]/}
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 "$bin" 2>&1)
	rc=$?
	printf '%s\tunit\t%s\n' "$(mt_secs_since "$t0")" "$tag" >>"$times"
	n_ok=$(grep -cE '^ok [0-9]+' <<<"$out")
	n_bad=$(grep -cE '^not ok [0-9]+' <<<"$out")
	echo "$out" | grep -E '^(ok|not ok) ' | sed "s|^|  $tag: |"
	for _ in $(seq 1 "$n_ok"); do echo "PASS $tag" >>"$results"; done
	for _ in $(seq 1 "$n_bad"); do echo "FAIL $tag" >>"$results"; done
	# A crash or sanitizer report exits non-zero without a "not ok" line.
	if [ "$rc" != 0 ] && [ "$n_bad" = 0 ]; then
		echo "FAIL $tag exit $rc" >>"$results"
		echo "$out" | tail -n 20
	fi
done

for t in tests/integration/*.sh; do
	echo "== $(basename "$t" .sh)"
	t0=${EPOCHREALTIME/[.,]/}
	bash "$t"
	printf '%s\tscript\t%s\n' "$(mt_secs_since "$t0")" "$(basename "$t" .sh)" >>"$times"
done

# Where the time went: the scripts and guests, longest first, and the ten slowest tests (a
# check's time is its script's work since the check before it; a guest case's, the case's).
echo "== time: $(mt_secs_since "$t_run") s in all"
awk -F '\t' '$2 == "script" || $2 == "guest"' "$times" | sort -rn | awk -F '\t' '{ printf "  %8.1f s  %-6s %s\n", $1, $2, $3 }'
echo "== the ten slowest tests"
awk -F '\t' '$2 == "check" || $2 == "case" || $2 == "unit"' "$times" | sort -rn | head -n 10 |
	awk -F '\t' '{ printf "  %8.1f s  %-6s %s\n", $1, $2, $3 }'

bash tests/tally.sh "$results"
status=$?
rm -f "$results" "$times"
exit $status
