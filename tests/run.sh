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

# script T: runs one integration script, its time kept.
script() {
	local t0=${EPOCHREALTIME/[.,]/}
	echo "== $(basename "$1" .sh)"
	bash "$1"
	printf '%s\tscript\t%s\n' "$(mt_secs_since "$t0")" "$(basename "$1" .sh)" >>"$times"
}

# The scripts that need no idle CPU and time nothing (the fuzzers, the package, the man
# pages) run beside the kernel matrix's guests, once its host part is over: the guests run
# at nice -15 in sessions of their own (tests/kernels/matrix.sh), so these take what the
# guests leave, chiefly the CPU idle while the last guest runs alone.  Their output is
# printed after the matrix's.
BESIDE="91_man 80_fuzz 90_install"
beside=$(mktemp -d /tmp/migtrace-beside.XXXXXX)
for t in tests/integration/*.sh; do
	name=$(basename "$t" .sh)
	case " $BESIDE " in *" $name "*) continue;; esac
	if [ "$name" != 70_kernels ]; then
		script "$t"
		continue
	fi
	script "$t" >"$beside/70_kernels.log" 2>&1 &
	kpid=$!
	# the host's part is alone (its balance cases need idle CPUs); then the guests
	wait_for "$beside/70_kernels.log" '^== [0-9]+ guests under qemu|^== kernel matrix in' 900 ||
		echo "== (the matrix has not reached its guests: running $BESIDE beside it anyway)"
	(
		for b in $BESIDE; do
			[ -f "tests/integration/$b.sh" ] && script "tests/integration/$b.sh" >"$beside/$b.log" 2>&1
		done
	) &
	bpid=$!
	wait "$kpid"
	cat "$beside/70_kernels.log"
	wait "$bpid"
	for b in $BESIDE; do cat "$beside/$b.log" 2>/dev/null; done
done
rm -rf "$beside"

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
