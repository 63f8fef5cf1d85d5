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
	# As root, in a session of its own whose autogroup runs at nice MT_SUITE_NICE (-10): with
	# kernel.sched_autogroup_enabled (Debian's default) CPU time is shared between sessions
	# first, so a CPU-bound process of another session at nice 0 takes ~1/10 of a CPU from
	# the suite where both want it, not half; the kernel matrix's guests are niced so for
	# the same reason.  Every task of the suite is still at nice 0 inside it.  The tests'
	# premises are unchanged: what needs an idle CPU still reads other work's load while
	# nothing of its own runs (docs/testing.md, "Under load").  This shell stays in the
	# caller's session, so that Ctrl-C, a TERM or a HUP reaches it, and passes them on to
	# the suite's whole session.
	_mt_group=${MT_SUITE_NICE:--10}
	if [ "$(id -u)" = 0 ] && [ "$_mt_group" != 0 ] && [ -w /proc/self/autogroup ] &&
		command -v setsid >/dev/null; then
		export MT_SUITE_GROUP_NICE=$_mt_group
		# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
		setsid nice -n "$((-_mt_nice))" env --default-signal bash -c \
			'echo "$MT_SUITE_GROUP_NICE" >/proc/self/autogroup 2>/dev/null; exec bash "$0" "$@"' \
			"$0" "$@" <&0 &
		_mt_child=$!	# the session's leader: util-linux setsid forks only a group leader
		for _mt_sig in INT TERM HUP; do
			# shellcheck disable=SC2064 # the signal's name, now
			trap "kill -$_mt_sig -- -$_mt_child 2>/dev/null" "$_mt_sig"
		done
		# wait returns early when a trapped signal comes: again until the suite has ended
		while :; do
			wait "$_mt_child"
			_mt_rc=$?
			if [ "$_mt_rc" -le 128 ] || ! kill -0 "$_mt_child" 2>/dev/null; then break; fi
		done
		exit "$_mt_rc"
	fi
	exec nice -n "$((-_mt_nice))" env --default-signal bash "$0" "$@"
fi
