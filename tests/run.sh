#!/usr/bin/env bash
# Runs every test: unit tests (plain and ASan+UBSan builds, cmocka in TAP form), then the
# integration tests.  The last line is "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.." || exit 1
results=$(mktemp /tmp/migtrace-results.XXXXXX)
export MT_RESULTS=$results

echo "== unit tests"
for bin in .output/tests/unit/test_* .output/tests/unit/san/test_*; do
	[ -x "$bin" ] && [ "${bin%.d}" = "$bin" ] || continue
	tag=$(basename "$bin"); case $bin in */san/*) tag="san/$tag";; esac
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 "$bin" 2>&1)
	rc=$?
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
	bash "$t"
done

bash tests/tally.sh "$results"
status=$?
rm -f "$results"
exit $status
