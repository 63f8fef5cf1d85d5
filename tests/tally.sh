#!/usr/bin/env bash
# tally.sh RESULTS: the closing lines of a test run from its PASS/FAIL/SKIP lines — the failed
# checks, then "N passed, N failed, N skipped" — and exit status 0 only when none failed.
# Shared by tests/run.sh and the kernel matrix run alone (tests/kernels/matrix.sh).
results=$1
passed=$(grep -c '^PASS' "$results")
failed=$(grep -c '^FAIL' "$results")
skipped=$(grep -c '^SKIP' "$results")
if [ "$failed" != 0 ]; then
	echo "failed:"
	grep '^FAIL' "$results" | sed 's/^FAIL /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
