#!/usr/bin/env bash
# The process every test runs in (tests/clean_start.sh): no signal ignored, whatever started
# the run (a `nohup` shell ignores SIGHUP, and 35_faults' SIGHUP cases then failed), every
# online CPU, nice 0, umask 022.  Each test script inherits tests/run.sh's state, so this
# script's own state is every test's.
. "$(dirname "$0")/../lib.sh"

# What a program the tests start inherits (bash ignores SIGQUIT for itself, and gives its
# children back the dispositions it started with): /proc's mask is hex, a bit per signal.
# The 31 standard signals only: glibc keeps signals 32 and 33 for itself (`env
# --default-signal` cannot reset them, and a CI run's inherited them ignored), and sets them
# up again in each program that uses them.
# std_ignored MASK: the standard signals MASK ignores, as a number (0: none)
std_ignored() { echo $((16#$1 & 0x7fffffff)); }
check clean_start_no_signal_ignored test \
	"$(std_ignored "$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status)")" = 0
check clean_start_every_cpu test "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)" \
	= "$(cat /sys/devices/system/cpu/online)"
check clean_start_nice_0 test "$(nice)" = 0
check clean_start_umask_022 test "$(umask)" = 0022
# and it holds when the run itself starts ignoring SIGHUP, on one CPU, at nice 5, umask 077:
# tests/clean_start.sh undoes each before any test runs
cat >"$MT_TMP/probe.sh" <<'SH'
. "$MT_ROOT/tests/clean_start.sh"
sed -n 's/^SigIgn:[[:space:]]*//p; s/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status
nice
umask
SH
out=$(cd "$MT_TMP" && MT_CLEAN_START='' MT_ROOT=$MT_ROOT timeout 20 nohup nice -n 5 taskset -c 0 \
	bash -c 'umask 077; exec bash "$1"' _ "$MT_TMP/probe.sh" 2>/dev/null)
out=$(printf '%s\n' "$(std_ignored "$(head -n 1 <<<"$out")")" "$(tail -n +2 <<<"$out")")
want=$(printf '%s\n' 0 "$(cat /sys/devices/system/cpu/online)" 0 0022)
check clean_start_undoes_nohup_taskset_nice_umask bash -c '[ "$1" = "$2" ] || { echo "$1" | tr "\n" " "; exit 1; }' \
	_ "$out" "$want"
# As root, the suite runs in a session of its own whose autogroup is at nice -10
# (MT_SUITE_NICE), so that a CPU-bound process of another session takes ~1/10 of a CPU from
# it, not half; the session's tasks are at nice 0 inside it (clean_start_nice_0, above)
ag=$(cat /proc/self/autogroup 2>/dev/null)
if [ "$(id -u)" != 0 ]; then
	skip clean_start_own_autogroup "not root: the autogroup's nice cannot be lowered"
elif [ -z "$ag" ] || [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" != 1 ]; then
	skip clean_start_own_autogroup "this kernel has no autogroups (kernel.sched_autogroup_enabled)"
else
	check clean_start_own_autogroup test "${ag##* nice }" = "${MT_SUITE_NICE:--10}"
fi
