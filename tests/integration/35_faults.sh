#!/usr/bin/env bash
# migtrace run under faults: special output files, bad output paths, closed pipes, signals
# at each phase, workloads that start children or ignore SIGINT, migtrace itself killed.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair fault_tests || exit 0

# alive PATTERN: a live (not zombie) process whose command line matches
alive() { ps -eo stat=,args= | awk -v p="$1" '$1 !~ /^Z/ && index($0, p)' | grep -q .; }

# 1. Special files are written in place, never replaced by a regular file.
mknod "$MT_TMP/null" c 1 3
"$MT" run -o "$MT_TMP/null" -- true >/dev/null 2>&1
check output_chardev_kept test -c "$MT_TMP/null"
mkfifo "$MT_TMP/fifo"
cat "$MT_TMP/fifo" >"$MT_TMP/fifo.out" &
reader=$!
"$MT" run -o "$MT_TMP/fifo" -- true >/dev/null 2>&1
wait "$reader"
check output_fifo_kept test -p "$MT_TMP/fifo"
check output_fifo_got_json json "$MT_TMP/fifo.out" "d['schema'].startswith('migtrace.run/')"
echo old >"$MT_TMP/target.json"
ln -s target.json "$MT_TMP/link.json"
"$MT" run -o "$MT_TMP/link.json" -- true >/dev/null 2>&1
check output_symlink_kept test -L "$MT_TMP/link.json"
check output_symlink_target_written json "$MT_TMP/target.json" "'migrations' in d"
ln -s made.json "$MT_TMP/dangling.json"
"$MT" run -o "$MT_TMP/dangling.json" -- true >/dev/null 2>&1
check output_dangling_symlink_kept test -L "$MT_TMP/dangling.json"
check output_dangling_symlink_target_made json "$MT_TMP/made.json" "'migrations' in d"
ln -s "$MT_TMP/no/such/dir/r.json" "$MT_TMP/dangling_nodir.json"
out=$("$MT" run -o "$MT_TMP/dangling_nodir.json" -- touch "$MT_TMP/ran" 2>&1)
check output_dangling_symlink_dir_refused_first bash -c '[ "$1" = 2 ] && [ ! -e "$2" ] && grep -q "directory .*/no/such/dir does not exist" <<<"$3"' _ $? "$MT_TMP/ran" "$out"
# /dev/stdout leads to what the shell opened: `>> log` is appended to, not replaced, and
# the run file has stdout to itself (as with -o -).
echo "an earlier line" >"$MT_TMP/log"
"$MT" run -o /dev/stdout -- echo from-the-workload >>"$MT_TMP/log" 2>/dev/null
check output_dev_stdout_appends bash -c 'head -n 1 "$1" | grep -qx "an earlier line" && tail -n +2 "$1" | python3 -c "import json, sys; json.load(sys.stdin)"' _ "$MT_TMP/log"
out=$("$MT" run -o /dev/fd/7 -- touch "$MT_TMP/ran" 2>&1 7</dev/null)
check output_read_only_fd_refused_first bash -c '[ "$1" = 2 ] && [ ! -e "$2" ] && grep -q "descriptor 7 is open for reading only" <<<"$3"' _ $? "$MT_TMP/ran" "$out"

# 2. Modes and owners: a replaced file keeps its mode, a new one follows the umask and, under
#    sudo, belongs to the user who ran sudo.
echo old >"$MT_TMP/mode.json"
chmod 600 "$MT_TMP/mode.json"
"$MT" run -o "$MT_TMP/mode.json" -- true >/dev/null 2>&1
check output_mode_kept test "$(stat -c %a "$MT_TMP/mode.json")" = 600
(umask 027; "$MT" run -o "$MT_TMP/umask.json" -- true >/dev/null 2>&1)
check output_umask test "$(stat -c %a "$MT_TMP/umask.json")" = 640
SUDO_UID=65534 SUDO_GID=65534 "$MT" run -o "$MT_TMP/sudo.json" -- true >/dev/null 2>&1
check output_sudo_owner test "$(stat -c %u:%g "$MT_TMP/sudo.json")" = 65534:65534

# 3. A bad output path is refused before the workload runs: one line, exit 2.
for bad in "$MT_TMP/no/such/dir/r.json" "$MT_TMP"; do
	out=$("$MT" run -o "$bad" -- touch "$MT_TMP/ran" 2>&1)
	rc=$?
	name=output_bad_path_$([ -d "$bad" ] && echo dir || echo missing_dir)
	if [ "$rc" = 2 ] && [ ! -e "$MT_TMP/ran" ] && [ "$(wc -l <<<"$out")" = 1 ] &&
		grep -qF "$bad" <<<"$out"; then pass "$name"
	else fail "$name" "rc=$rc ran=$([ -e "$MT_TMP/ran" ] && echo yes) out=$out"; fi
	rm -f "$MT_TMP/ran"
done

# 4. A closed stdout does not lose the run: the file is written, no temporary left behind.
"$MT" run -o "$MT_TMP/pipe.json" wakeup -t 2 -d 1 | head -n 1 >/dev/null
check closed_stdout_file_written json "$MT_TMP/pipe.json" "d['stats']['switches_in'] > 0"
check closed_stdout_no_tmp bash -c '! ls -A "$1" | grep -q "^\.pipe\.json\."' _ "$MT_TMP"
# ... also when stdout closes before the tracing starts: validate's calibration printed into a
# pipe `head -1` had closed, and SIGPIPE ended it there (exit 141, no run file; issue 36)
"$MT" validate --budget 0 --samples 2 --ages 50,1000 -o "$MT_TMP/vpipe.json" 2>/dev/null |
	head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
check closed_stdout_validate_file_written bash -c '[ "$1" != 141 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"verdict\"][\"verdict\"]" "$2"' \
	_ "$rc" "$MT_TMP/vpipe.json"
# and calibrate, whose matrix and hot time go to that stdout (the same promise: issue 36)
"$MT" calibrate --cpus 0,1 --reps 3 -o "$MT_TMP/cpipe.json" 2>/dev/null | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
check closed_stdout_calibrate_file_written bash -c '[ "$1" != 141 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"cells\"]" "$2"' \
	_ "$rc" "$MT_TMP/cpipe.json"
# A file-size limit (ulimit -f) fails the write with EFBIG and its message, exit 1, not
# SIGXFSZ (exit 153, no word); no temporary is left, and the workload keeps the signal's
# default (it is killed by it, as it would be without migtrace)
# (1 KiB: the run file of `true` alone is several, whatever the host did meanwhile)
out=$(bash -c 'ulimit -f 1; exec "$1" run -o "$2/fsize.json" -- true' _ "$MT" "$MT_TMP" 2>&1 >/dev/null); rc=$?
check fsize_limit_is_an_error bash -c '[ "$1" = 1 ] && grep -q "File too large" <<<"$2" &&
	! ls -A "$3" | grep -q "^\.fsize\.json\."' _ "$rc" "$out" "$MT_TMP"
out=$(bash -c 'ulimit -f 1; exec "$1" run -- sh -c "head -c 100000 /dev/zero >\"\$0\"; echo \$?" "$2/big"' _ "$MT" "$MT_TMP" 2>&1)
check fsize_workload_default bash -c 'grep -qx 153 <<<"$1"' _ "$out"

# 5. --duration and signals reach the workload's whole process group.
"$MT" run -d 1 -- sh -c "sleep 31; echo x" >/dev/null 2>&1
sleep 0.5
check duration_ends_grandchildren bash -c "! $(declare -f alive); alive 'sleep 31'"
"$MT" run -o "$MT_TMP/int.json" -- sh -c 'trap "" INT; sleep 32' >"$MT_TMP/int.out" 2>"$MT_TMP/int.err" &
mt=$!
wait_for "$MT_TMP/int.out" '^Tracing'
start=$(date +%s%N)
kill -INT "$mt"
wait "$mt"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
check sigint_ignored_escalates bash -c '[ "$1" -lt 8000 ] && grep -q "sent SIGINT to the workload.s process group" "$2" && grep -q "sent SIGTERM" "$2"' _ "$took_ms" "$MT_TMP/int.err"
check sigint_file_written json "$MT_TMP/int.json" "'migrations' in d"
check sigint_no_survivor bash -c "! $(declare -f alive); alive 'sleep 32'"
"$MT" run -o "$MT_TMP/hup.json" -- sleep 33 >"$MT_TMP/hup.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/hup.out" '^Tracing'
kill -HUP "$mt"
wait "$mt"
check sighup_ends_run json "$MT_TMP/hup.json" "d['meta']['exit_status'] == 129 and 'Hangup' in d['meta']['end_reason']" "d['meta']"
check sighup_no_survivor bash -c "! $(declare -f alive); alive 'sleep 33'"

# 6. SIGKILL of migtrace takes the workload with it, and what the workload started:
#    PR_SET_PDEATHSIG reaches only the first process, the guard the rest of its group.
# sigkill_case NAME PATTERN CMD...: migtrace killed 1 s into CMD; no process matching PATTERN
sigkill_case() {
	local name=$1 pattern=$2 mt
	shift 2
	"$MT" run -- "$@" >"$MT_TMP/$name.out" 2>&1 &
	mt=$!
	wait_for "$MT_TMP/$name.out" '^Tracing'
	sleep 0.2	# the workload past its exec, so that the kill finds what it started
	kill -KILL "$mt"
	wait "$mt" 2>/dev/null
	sleep 0.5
	check "$name" bash -c "! $(declare -f alive); alive '$pattern'"
}
sigkill_case sigkill_takes_workload 'sleep 34' sleep 34
sigkill_case sigkill_takes_grandchildren 'sleep 36' sh -c 'sleep 36; echo x'

# 7. -p: a thread id is resolved to its process; a zombie is refused.
python3 -c '
import threading, time, os
def tick():
    for _ in range(300): time.sleep(0.01)
t = threading.Thread(target=tick); t.start()
print(os.getpid(), t.native_id, flush=True); tick(); t.join()' >"$MT_TMP/thr.out" &
wait_until 30 test -s "$MT_TMP/thr.out"
read -r tgid tid <"$MT_TMP/thr.out"
out=$("$MT" run -p "$tid" -d 1 -o "$MT_TMP/tid.json" 2>&1)
check pid_thread_resolved grep -q "is a thread of process $tgid: tracing process $tgid" <<<"$out"
check pid_thread_traced json "$MT_TMP/tid.json" "d['meta']['pid'] == $tgid and d['stats']['traced_tasks'] >= 2" "d['meta'], d['stats']"
wait
bash -c 'sleep 0.2 & exec sleep 3' &
parent=$!
sleep 0.6
zombie=$(ps -o pid= --ppid "$parent" | tr -d ' ')
out=$("$MT" run -p "$zombie" -d 1 2>&1)
rc=$?
check pid_zombie_refused bash -c '[ "$1" = 2 ] && grep -q "zombie" <<<"$2"' _ "$rc" "$out"
wait
# A leader that called pthread_exit() is a zombie while its thread runs on: traced to the end
# of the process, not refused, not ended at once.
"$MT_PROGS/leaderexit" 3 >"$MT_TMP/le.out" &
wait_until 30 test -s "$MT_TMP/le.out"
sleep 0.2
"$MT" run -p "$(cat "$MT_TMP/le.out")" -o "$MT_TMP/le.json" >/dev/null 2>&1
check pid_leader_exited_traced json "$MT_TMP/le.json" \
	"d['meta']['duration_s'] > 2 and d['meta']['end_reason'] == 'process exited' and d['stats']['by_cause']['affinity'] > 100" "d['meta'], d['stats']['by_cause']"
wait

# 8. A bad --unit is one line and exit 2, before anything runs; a long command says where
#    it was cut.
for spec in /nonexistent:func /bin/true:no_such_function /etc/passwd:x no_such_program:x; do
	out=$("$MT" run --unit "$spec" -- touch "$MT_TMP/ran" 2>&1)
	rc=$?
	name=unit_bad_$(tr -c 'a-z\n' _ <<<"${spec%%:*}" | tail -c 12)
	if [ "$rc" = 2 ] && [ ! -e "$MT_TMP/ran" ] && [ "$(wc -l <<<"$out")" = 1 ] &&
		grep -q "^migtrace run: --unit: " <<<"$out"; then pass "$name"
	else fail "$name" "rc=$rc out=$out"; fi
done
"$MT" run -o "$MT_TMP/long.json" -- /bin/echo "$(head -c 3000 /dev/zero | tr '\0' a)" >/dev/null 2>&1
check long_command_marked json "$MT_TMP/long.json" \
	"d['meta']['command'].endswith('more characters, 3010 in all]')" "d['meta']['command'][-80:]"

# 9. An interrupted validate says so and gives no verdict, in the text and in the file.
"$MT" validate -o "$MT_TMP/val.json" >"$MT_TMP/val.out" 2>&1 &
mt=$!
# (step 1, the 2004 method and the chase, takes a few seconds; more on a loaded host)
wait_for "$MT_TMP/val.out" 'step 2 of 2'
sleep 3
kill -INT "$mt"
wait "$mt"
check validate_interrupted_no_verdict grep -q "^verdict: none: the controlled experiment was interrupted" "$MT_TMP/val.out"
check validate_interrupted_not_judged bash -c '! grep -qE "=> the kernel.s .* is too (low|high)" "$1"' _ "$MT_TMP/val.out"
check validate_interrupted_file json "$MT_TMP/val.json" \
	"d['meta']['interrupted'] is True and d['verdict']['verdict'] == 'none' and d['verdict']['factor'] is None and d['verdict']['observed_hot_ns'] is None" "d['meta'], d['verdict']"

# 10. A full disk keeps the old file byte for byte and leaves no temporary; a read-only
#     mount is refused before the workload runs.
mkdir -p "$MT_TMP/small" "$MT_TMP/ro"
if mount -t tmpfs -o size=256k tmpfs "$MT_TMP/small" 2>/dev/null; then
	echo '{"old": true}' >"$MT_TMP/small/r.json"
	before=$(cksum <"$MT_TMP/small/r.json")
	dd if=/dev/zero of="$MT_TMP/small/fill" bs=4k 2>/dev/null
	out=$("$MT" run -o "$MT_TMP/small/r.json" wakeup -t 2 -d 1 2>&1)
	rc=$?
	check full_disk_fails bash -c '[ "$1" != 0 ] && grep -q "No space left" <<<"$2"' _ "$rc" "$out"
	check full_disk_old_file_kept test "$(cksum <"$MT_TMP/small/r.json")" = "$before"
	check full_disk_no_tmp bash -c '! ls -A "$1" | grep -q "^\.r\.json\."' _ "$MT_TMP/small"
	umount "$MT_TMP/small"
else
	fail full_disk "cannot mount a tmpfs at $MT_TMP/small (needs root)"
fi
if mount -t tmpfs -o ro tmpfs "$MT_TMP/ro" 2>/dev/null; then
	out=$("$MT" run -o "$MT_TMP/ro/r.json" -- touch "$MT_TMP/ran" 2>&1)
	rc=$?
	check read_only_refused_first bash -c '[ "$1" = 2 ] && [ ! -e "$2" ] && grep -q "not writable" <<<"$3"' _ "$rc" "$MT_TMP/ran" "$out"
	umount "$MT_TMP/ro"
else
	fail read_only "cannot mount a read-only tmpfs at $MT_TMP/ro (needs root)"
fi

# 11. Ctrl-C while the programs load and attach: the workload, held at its barrier, never
#     runs; no program, no temporary file is left.
for delay in 0.02 0.08 0.2; do
	rm -f "$MT_TMP/ran"
	"$MT" run -o "$MT_TMP/early.json" -- touch "$MT_TMP/ran" >/dev/null 2>&1 &
	mt=$!
	sleep "$delay"
	kill -INT "$mt" 2>/dev/null
	wait "$mt"
	rc=$?
	# either it was stopped before the release (nothing ran) or it had finished already
	if [ ! -e "$MT_TMP/ran" ] || [ -s "$MT_TMP/early.json" ]; then pass "sigint_at_${delay}s_clean"
	else fail "sigint_at_${delay}s_clean" "rc=$rc: the workload ran, but no run file was written"; fi
done
check sigint_early_no_programs no_programs_left
check sigint_early_no_tmp bash -c '! ls -A "$1" | grep -q "^\.early\.json\."' _ "$MT_TMP"

# 12. A signal while a file's temporary exists (strace holds its fsync 2 s) waits for the
#     rename: the file whole, no temporary left, then the signal's usual end (calibrate has
#     no handler of its own: it once left .c.json.XXXXXX behind).
if command -v strace >/dev/null; then
	mkdir -p "$MT_TMP/sig"
	strace -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=2000000 \
		"$MT" calibrate --reps 3 -o "$MT_TMP/sig/c.json" >/dev/null 2>&1 &
	st=$!
	for _ in $(seq 100); do ls -A "$MT_TMP/sig" | grep -q '^\.c\.json\.' && break; sleep 0.1; done
	kill -HUP "$(pgrep -P "$st")"
	wait "$st" 2>/dev/null	# not bash's "Hangup" line: that death is the expected one
	rc=$?
	check sighup_while_writing_file_whole json "$MT_TMP/sig/c.json" "d['schema'] == 'migtrace.calibrate/3' and 'hot_seed_ns' in d and len(d['cells']) == len(d['cpus']) ** 2"
	check sighup_while_writing_no_tmp bash -c '[ "$1" = 129 ] && ! ls -A "$2" | grep -q "^\.c\.json\."' _ "$rc" "$MT_TMP/sig"
else
	fail sighup_while_writing "strace is not installed (make deps)"
fi

# 13. A tight open-file limit: every map, program and link is a descriptor.  run raises its
#     soft limit to what loading needs, up to the hard limit, and the workload keeps the
#     limit it was given; under a hard limit too low, one line names the limit and the fix.
#     (Before, `ulimit -Sn 16` ended in "loading the BPF programs failed: Invalid argument".)
out=$(bash -c 'ulimit -Sn 16; exec "$1" run -- sh -c "echo workload-nofile \$(ulimit -Sn)"' \
	_ "$MT" 2>&1); rc=$?
check nofile_soft_raised bash -c '[ "$1" = 0 ] && grep -qx "workload-nofile 16" <<<"$2" &&
	! grep -q "failed" <<<"$2"' _ "$rc" "$out"
rm -f "$MT_TMP/ran"
out=$(bash -c 'ulimit -n 16; exec "$1" run -- touch "$2"' _ "$MT" "$MT_TMP/ran" 2>&1); rc=$?
check nofile_hard_named bash -c '[ "$1" = 1 ] && [ ! -e "$2" ] && [ "$(wc -l <<<"$3")" = 1 ] &&
	grep -q "^migtrace: the open-file limit (RLIMIT_NOFILE) is 16, hard limit 16, .*needs [0-9]* descriptors.*raise it with \`ulimit -n 1024\`" <<<"$3"' \
	_ "$rc" "$MT_TMP/ran" "$out"

# 14. A symbolic link another user planted in a sticky, world-writable directory is not
#     followed where the kernel would not follow it (fs.protected_symlinks=1): the rename over
#     its target happens in user space, where the kernel's rule never applies, so root would
#     overwrite whatever it points at (issue 36).  With the rule off, and for a link of our
#     own, the link is followed as before.  The sysctl is put back as it was.
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/fs/protected_symlinks ] && command -v setpriv >/dev/null; then
	ps_orig=$(cat /proc/sys/fs/protected_symlinks)
	vdir=$(mktemp -d /root/.mt-victim.XXXXXX)
	link=$(mktemp -u /tmp/mt-planted.XXXXXX).json
	echo precious >"$vdir/victim"
	chmod 600 "$vdir/victim"
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$vdir/victim" "$link"
	echo 1 >/proc/sys/fs/protected_symlinks
	out=$("$MT" report -o "$link" "$MT_ROOT/tests/data/sample-run.json" 2>&1 >/dev/null); rc=$?
	check symlink_planted_refused bash -c '[ "$1" = 2 ] && [ "$(cat "$2")" = precious ] &&
		[ "$(wc -l <<<"$3")" = 1 ] && grep -q "is a symbolic link owned by uid [0-9]* in the sticky, world-writable directory /tmp: not followed" <<<"$3"' \
		_ "$rc" "$vdir/victim" "$out"
	rm -f "$link"
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$vdir/new.json" "$link"
	"$MT" report -o "$link" "$MT_ROOT/tests/data/sample-run.json" >/dev/null 2>&1; rc=$?
	check symlink_planted_dangling_refused bash -c '[ "$1" = 2 ] && [ ! -e "$2" ]' _ "$rc" "$vdir/new.json"
	rm -f "$link"
	ln -s "$vdir/own.json" "$link"
	"$MT" report -o "$link" "$MT_ROOT/tests/data/sample-run.json" >/dev/null 2>&1; rc=$?
	check symlink_own_followed bash -c '[ "$1" = 0 ] && [ -L "$2" ] && [ -s "$3" ]' _ "$rc" "$link" "$vdir/own.json"
	rm -f "$link"
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$vdir/victim" "$link"
	echo 0 >/proc/sys/fs/protected_symlinks
	"$MT" report -o "$link" "$MT_ROOT/tests/data/sample-run.json" >/dev/null 2>&1; rc=$?
	check symlink_followed_without_protection bash -c '[ "$1" = 0 ] && [ -L "$2" ] &&
		head -c 30 "$3" | grep -q migtrace.run' _ "$rc" "$link" "$vdir/victim"
	echo "$ps_orig" >/proc/sys/fs/protected_symlinks
	rm -rf "$vdir" "$link"
else
	skip symlink_planted_refused "needs root, a writable fs.protected_symlinks and setpriv"
fi

# A container's pid namespace: the scheduler's events name tasks by the host's pids, so a run
# there traced another task (pid 2, kthreadd) and reported 0 migrations with no word.  Both
# backends refuse in one line, exit 1; doctor names it.
if [ "$(id -u)" = 0 ] && unshare -fp --mount-proc true 2>/dev/null; then
	rc=0
	unshare -fp --mount-proc "$MT" run wakeup -t 2 -d 1 >"$MT_TMP/pidns.out" 2>&1 || rc=$?
	check pid_namespace_refused bash -c '[ "$1" = 1 ] && grep -q "pid namespace of its own" "$2" &&
		! grep -q "^migrations:" "$2"' _ "$rc" "$MT_TMP/pidns.out"
	rc=0
	unshare -fp --mount-proc "$MT" run --backend ftrace -- true >"$MT_TMP/pidns_ft.out" 2>&1 || rc=$?
	check pid_namespace_refused_ftrace bash -c '[ "$1" = 1 ] &&
		grep -q "pid namespace of its own" "$2"' _ "$rc" "$MT_TMP/pidns_ft.out"
	unshare -fp --mount-proc "$MT" doctor >"$MT_TMP/pidns_doctor.out" 2>/dev/null
	check pid_namespace_doctor grep -qE '^missing +pid namespace ' "$MT_TMP/pidns_doctor.out"
else
	skip pid_namespace_refused "needs root and unshare -p"
fi
