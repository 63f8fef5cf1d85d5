# Sourced first by tests/run.sh and tests/kernels/matrix.sh, never run: gives the test run a
# process state of its own, whatever started it, then goes on.  A shell started by `nohup`
# ignores SIGHUP, and every process below it inherits that (bash cannot even trap a signal
# ignored at its start), so a test that sends migtrace SIGHUP saw it survive; a run started
# under `taskset -c 0` could not migrate anything; a nice or an umask changes what the tests
# time and the modes of the files they check.  So the script re-executes itself once with
# every signal at its default (coreutils' `env --default-signal`), on every online CPU, at
# nice 0, with umask 022.  MT_CLEAN_START marks the second start.
if [ -z "${MT_CLEAN_START:-}" ]; then
	export MT_CLEAN_START=1
	umask 022
	# every online CPU (an inherited affinity can only narrow it)
	taskset -p -c "$(cat /sys/devices/system/cpu/online)" $$ >/dev/null 2>&1 ||
		echo "clean_start: could not widen the CPU affinity to every online CPU" >&2
	# nice(1) adds to the current niceness; lowering it needs root
	_mt_nice=$(nice)
	if [ "$_mt_nice" != 0 ] && [ "$(id -u)" != 0 ] && [ "$_mt_nice" -gt 0 ]; then
		echo "clean_start: running at nice $_mt_nice (only root can return to 0)" >&2
		_mt_nice=0
	fi
	exec nice -n "$((-_mt_nice))" env --default-signal bash "$0" "$@"
fi
