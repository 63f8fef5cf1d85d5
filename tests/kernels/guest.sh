#!/bin/sh
# The kernel matrix's suite: runs migtrace's real BPF cases on the kernel it is running on and
# ships the raw outputs (exit codes, text, small run records) to $MT_CHANNEL.  It checks
# nothing itself: tests/kernels/check.py judges the outputs on the host, so this file stays
# POSIX sh and runs the same under busybox ash (the initramfs of a qemu guest, where
# MT_CHANNEL is the second serial port) and under the host's sh (the host's own kernel).
#
# Channel format, one block per case, so that a guest which hangs in case N has still
# delivered cases 1..N-1 and the host can name the case that hung:
#   MT-HELLO <uptime s> <uname -r>
#   MT-CASE <case> <uptime s>                  the case starts
#   MT-FILE <case> <file>  / base64 of gzip / MT-EOF
#   MT-END <case> <uptime s> <duration s>      the case's files are all shipped
#   MT-DONE <uptime s>
#
# Environment: MT_ROOT (the directory holding ./migtrace and .output/), MT_CHANNEL (where
# the blocks go), MT_CASE_TIMEOUT (seconds per command, default 300), MT_WORK (scratch).
# shellcheck disable=SC2086 # $BK_BPF, $drop, $mode: lists of words, split on purpose
set -u

MT_ROOT=${MT_ROOT:?MT_ROOT must name the directory holding migtrace and .output/}
MT_CHANNEL=${MT_CHANNEL:?MT_CHANNEL must name the results channel (a file or a tty)}
CASE_TIMEOUT=${MT_CASE_TIMEOUT:-300}
MT="$MT_ROOT/migtrace"
PROGS="$MT_ROOT/.output/tests/progs"
WORK=${MT_WORK:-/tmp/mt-kernels.$$}
# The tunable where this kernel has it: debugfs since 5.13, a sysctl before (env's facts
# say which, for check.py).
TUNABLE=/sys/kernel/debug/sched/migration_cost_ns
[ -e "$TUNABLE" ] || [ ! -e /proc/sys/kernel/sched_migration_cost_ns ] ||
	TUNABLE=/proc/sys/kernel/sched_migration_cost_ns
# Bounds the size of every run record shipped: counts and histograms stay complete.
MAXREC=2000

if ! { rm -rf "$WORK" && mkdir -p "$WORK"; }; then
	echo "guest.sh: cannot create $WORK (set MT_WORK to a writable directory)" >&2
	exit 1
fi

now() { read -r up _ </proc/uptime; echo "$up"; }
emit() { echo "$*" >>"$MT_CHANNEL"; }

# run_to DIR NAME CMD...: runs CMD under the per-command timeout (SIGKILL 10 s after the
# TERM, so a hung migtrace cannot stall the suite); stdout, stderr and the exit status go to
# DIR/NAME.out, .err and .rc (124/137 mean the timeout fired), its seconds to DIR/NAME.secs
# (where a case's time goes: docs/testing.md).
run_to() {
	_d=$1 _n=$2 _t0=$(now)
	shift 2
	timeout -k 10 "$CASE_TIMEOUT" "$@" >"$_d/$_n.out" 2>"$_d/$_n.err"
	echo $? >"$_d/$_n.rc"
	awk -v a="$_t0" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }' >"$_d/$_n.secs"
}

case_begin() {
	CASE=$1
	CDIR=$WORK/$CASE
	mkdir -p "$CDIR"
	T0=$(now)
	emit "MT-CASE $CASE $T0"
	echo "mt-guest: $CASE" >&2
}

# case_end: ships every file of the case's directory, then the end marker with its duration.
case_end() {
	for _f in "$CDIR"/*; do
		[ -f "$_f" ] || continue
		{
			echo "MT-FILE $CASE ${_f##*/}"
			gzip -c "$_f" | base64
			echo "MT-EOF"
		} >>"$MT_CHANNEL"
	done
	_t1=$(now)
	emit "MT-END $CASE $_t1 $(awk -v a="$T0" -v b="$_t1" 'BEGIN { printf "%.2f", b - a }')"
}

# affinity_moves FILE PID: how many affinity migrations of task PID a run record holds.
# Used only to decide whether to measure again (as tests/integration/30_run.sh does);
# check.py does the real count.  The file is one JSON line of flat records, each with
# "pid":N, before its "cause" (meta's "pid" is followed by a "}" before any "cause").
# cause_count FILE CAUSE: the run file's count of migrations of that cause (the first
# by_cause object is the stats' one; levels and the verdict have their own after it)
cause_count() {
	n=$(grep -o '"by_cause":{[^}]*}' "$1" 2>/dev/null | head -n 1 | grep -o "\"$2\":[0-9]*" |
		cut -d: -f2)
	echo "${n:-0}"
}

affinity_moves() {
	grep -o "\"pid\":$2,[^}]*\"cause\":\"affinity\"" "$1" 2>/dev/null | wc -l
}

# pid_moves FILE PID: how many migrations of task PID (any cause) a run record holds.
pid_moves() {
	grep -o "\"pid\":$2,[^}]*\"cause\":\"" "$1" 2>/dev/null | wc -l
}

# The BPF cases name their backend where migtrace has a choice, so that a BPF program that
# does not load here fails them instead of `auto` quietly running ftrace in their place.
BK_BPF=
"$MT" run --help 2>/dev/null | grep -q -- '--backend' && BK_BPF="--backend bpf"

# Restore the tunable whatever happens: on the host this is the real machine's setting.
TUNABLE_ORIG=
restore_tunable() {
	[ -n "$TUNABLE_ORIG" ] && echo "$TUNABLE_ORIG" >"$TUNABLE" 2>/dev/null
	TUNABLE_ORIG=
}
trap 'restore_tunable' EXIT
trap 'restore_tunable; exit 130' INT TERM

# Facts the host reports beside the results.
c_env() {
	case_begin env
	{
		echo "uname $(uname -r)"
		echo "version $(cat /proc/sys/kernel/version 2>/dev/null)"
		echo "nproc $(nproc)"
		echo "btf $(test -r /sys/kernel/btf/vmlinux && echo yes || echo no)"
		echo "lockdown $(cat /sys/kernel/security/lockdown 2>/dev/null || echo unknown)"
		echo "preempt $(uname -v)"
		echo "tunable $TUNABLE"
	} >"$CDIR/facts"
	# what the scheduler's debugfs offers this kernel (7.2's cache-aware scheduling has its
	# knobs there): for a look, not judged
	ls -R /sys/kernel/debug/sched >"$CDIR/debugfs_sched" 2>&1
	# The kernel's text symbols, once per kernel (the host asks when it has not cached them):
	# Debian's System.map is a stub, and with nokaslr these addresses name a hung guest's vCPUs.
	if [ "${MT_SHIP_KALLSYMS:-0}" = 1 ]; then
		awk '$2 == "t" || $2 == "T" { print $1, $3 }' /proc/kallsyms >"$CDIR/kallsyms"
	fi
	case_end
}

# doctor: its exit status and its lines (it also names a program the verifier rejects).
c_doctor() {
	case_begin doctor
	run_to "$CDIR" doctor "$MT" doctor
	case_end
}

# Does `migtrace run` load, verify and attach at all?  With -v, so that a rejection ships
# the verifier's log (libbpf prints it on failure only).
c_run_loads() {
	case_begin run_loads
	run_to "$CDIR" run "$MT" run -v $BK_BPF --cpus 0,1 -o "$CDIR/run.json" -- true
	case_end
}

# -a and --cgroup: other paths through the same programs (rodata scope), each verified
# here; --cgroup on the cgroup v2 root, mounted for it when the guest has none.
c_scope() {
	case_begin scope
	run_to "$CDIR" all "$MT" run -v $BK_BPF -a --duration 1
	cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	if [ -z "$cg" ]; then
		cg=/tmp/mt-cgroup2
		mkdir -p "$cg" && mount -t cgroup2 none "$cg" 2>"$CDIR/mount.err"
	fi
	run_to "$CDIR" cgroup "$MT" run -v $BK_BPF --cgroup "$cg" --duration 1
	case_end
}

# The workload cases run once, traced by both backends at once: the workload held on a FIFO
# and traced from its exec (-p) by the BPF backend (bpf.*, bpf.json) and the ftrace backend
# (run.*, run.json), its own output in work.*.  check.py judges the BPF run as the BPF cases
# (the counts, causes and records of each workload) and the ftrace run against it, move by
# move, and against the kernel's count (se.nr_migrations, which only the BPF backend reads).
# One run for both halves the matrix's workload time (docs/testing.md, "Nothing is measured
# twice"); `migtrace run -- CMD` itself is run_loads', scope's and the tunable case's.

# mt_run CMD...: the case's workload, held and traced by both backends; it ends when the
# workload has ended and both runs have.
mt_run() {
	_gate=$CDIR/gate
	rm -f "$_gate" "$CDIR"/run.* "$CDIR"/bpf.* "$CDIR"/work.*
	mkfifo "$_gate"
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
	sh -c 'read _ <"$0"; exec "$@"' "$_gate" "$@" >"$CDIR/work.out" 2>&1 &
	_w=$!	# the workload's own pid (sh execs it): -p traces it from its exec
	( sleep "$CASE_TIMEOUT"; kill -9 "$_w" ) 2>/dev/null &
	_dog=$!
	run_to "$CDIR" bpf "$MT" run --backend bpf -p "$_w" --max-records "$MAXREC" \
		-o "$CDIR/bpf.json" &
	_b=$!
	run_to "$CDIR" run "$MT" run --backend ftrace -p "$_w" --max-records "$MAXREC" \
		-o "$CDIR/run.json" &
	_f=$!
	# released once both say they trace (or either has ended: the other traces alone)
	_i=0
	while [ "$_i" -lt 600 ]; do
		grep -qs '^Tracing' "$CDIR/bpf.out" "$CDIR/bpf.err" &&
			grep -qs '^Tracing' "$CDIR/run.out" "$CDIR/run.err" && break
		if ! kill -0 "$_b" 2>/dev/null || ! kill -0 "$_f" 2>/dev/null; then break; fi
		sleep 0.1
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2016
	timeout 10 sh -c ': >"$0"' "$_gate"
	wait "$_w"
	echo $? >"$CDIR/work.rc"
	kill "$_dog" 2>/dev/null
	wait "$_b"
	wait "$_f"
	rm -f "$_gate"
}

# 23 affinity moves of a sleeping task, measured up to 3 times as 30_run.sh does: the
# kernel now and then moves the sleeping task without a sched_migrate_task event.  Again
# until BPF saw the 23 as affinity moves and ftrace saw 23 moves of the pid (it may not
# tell their cause).
c_selfmig_sleeping() {
	case_begin selfmig_sleeping
	for attempt in 1 2 3; do
		mt_run "$PROGS/selfmig" sleeping 23 5
		echo "$attempt" >"$CDIR/attempts"
		pid=$(sed -n 's/^selfmig sleeping pid \([0-9]*\) .*/\1/p' "$CDIR/work.out")
		# nothing to measure again when migtrace failed outright (no run record)
		if [ ! -s "$CDIR/bpf.json" ] || [ ! -s "$CDIR/run.json" ] || [ -z "$pid" ]; then
			break
		fi
		[ "$(affinity_moves "$CDIR/bpf.json" "$pid")" -eq 23 ] &&
			[ "$(pid_moves "$CDIR/run.json" "$pid")" -ge 23 ] && break
	done
	case_end
}

c_selfmig_running() {
	case_begin selfmig_running
	mt_run "$PROGS/selfmig" running 23 1
	case_end
}

# Threads and children are traced; another process migrating at the same time is not.
c_family() {
	case_begin family
	timeout -k 10 "$CASE_TIMEOUT" "$PROGS/selfmig" running 30 1 >"$CDIR/other.out" 2>&1 &
	other=$!
	mt_run "$PROGS/family" 5 7
	wait "$other"
	echo $? >"$CDIR/other.rc"
	case_end
}

# foreign FILE: other work's load on the CPUs, in CPUs, while nothing of the suite runs
# (foreign_busy.sh, beside this file): check.py skips a count of moves onto an idle CPU
# (the balancer's, the wake-ups') of none when it reads 0.5 or more before or after the case.
foreign() {
	sh "${0%/*}/foreign_busy.sh" >"$1" 2>&1
}

# The scheduler's own causes.  Whether the balancer acts in a given second is the
# scheduler's choice: a case whose BPF run shows none of its cause is measured again, up
# to 5 times, as 30_run.sh measures again what the host disturbs (6.12 under TCG once
# placed no forked child on the other CPU in 3 runs).  The rule (docs/testing.md, "No
# flakes"): a case fails only when all 5 tries show none, p^5 for a try's chance p of
# none; in the runs of record no required cause needed a second try on a quiet host
# (beside a CPU-bound process the host's active balance never came: check.py's idle-CPU
# premise).  The ftrace run of the last try is judged on its counts and moves (against
# the BPF run's and the kernel's), not on causes ftrace cannot tell.
# So are the causes check.py reports but does not require, where measuring again bought
# nothing but time: exec balancing anywhere, and active balancing on PREEMPT_RT (whose
# balancer pulls instead: 5 tries of 3.6 s each, in vain, in every run of the RT guest).
RT=no
case $(uname -r) in *-rt*) RT=yes;; esac
c_balance() {
	for mode in "lb 1 lb_pull" "active 2 active_balance" "fork 1 fork" "exec 1 exec"; do
		set -- $mode
		case_begin "balance_$1"
		tries=5
		if [ "$1" = exec ] || { [ "$1" = active ] && [ "$RT" = yes ]; }; then tries=1; fi
		attempt=1
		foreign "$CDIR/foreign_before"
		while [ "$attempt" -le "$tries" ]; do
			mt_run "$PROGS/balance" "$1" "$2"
			echo "$attempt" >"$CDIR/attempts"
			[ -s "$CDIR/bpf.json" ] || break
			[ "$(cause_count "$CDIR/bpf.json" "$3")" -ge 1 ] && break
			attempt=$((attempt + 1))
		done
		foreign "$CDIR/foreign_after"
		case_end
	done
}

# -t 6 as in 30_run.sh: with -t 4 the host's 6.18 placed 1 wake-up in 2 s once (4 x 30 %
# load on 2 CPUs mostly wakes on an idle CPU).  3 s, for check.py's ">= 10 wakeup
# placements" (guest.sh tries for 10, check.py requires 1): 2 s gave 11-24 under TCG, and
# 6.12 on a loaded host needed all 3 tries once.  PREEMPT_RT's placements are reported,
# not required (check.py): measured once.
c_wakeup() {
	case_begin wakeup
	foreign "$CDIR/foreign_before"
	for attempt in 1 2 3; do
		mt_run "$MT_ROOT/.output/workloads/wakeup" -t 6 -d 3
		echo "$attempt" >"$CDIR/attempts"
		[ -s "$CDIR/bpf.json" ] || break
		[ "$(cause_count "$CDIR/bpf.json" wakeup)" -ge 10 ] && break
		[ "$RT" = yes ] && break	# not required there (check.py): once
	done
	foreign "$CDIR/foreign_after"
	case_end
}

# mt_instances: the names of migtrace's tracefs instances, one a line (none: nothing).
mt_instances() {
	for _d in /sys/kernel/tracing/instances/migtrace-*; do
		[ -e "$_d" ] && echo "${_d##*/}"
	done
}

# The ftrace backend (private tracefs instances, no BPF): does it start and end at all,
# with -v, and leave no instance.  (The workload cases above run it beside BPF.)
c_ftrace() {
	case_begin ftrace_loads
	run_to "$CDIR" run "$MT" run -v --backend ftrace --cpus 0,1 -o "$CDIR/run.json" -- true
	# the instances are removed on every exit path: none of migtrace's may be left (a
	# guard process removes them if migtrace could not: given 10 s here, under TCG)
	i=0
	while [ -n "$(mt_instances)" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ls /sys/kernel/tracing/instances >"$CDIR/instances" 2>&1
	case_end
}

# BPF made unavailable the way a policy would: migtrace without CAP_BPF, CAP_SYS_ADMIN and
# CAP_PERFMON (dropped from the bounding set, so root's exec gets none of them; util-linux's
# setpriv, busybox's has no --bounding-set).  --backend auto must fall back to ftrace and
# say why; doctor must say which backend would load.
c_ftrace_fallback() {
	case_begin ftrace_fallback
	drop="/usr/bin/setpriv --bounding-set=-bpf,-sys_admin,-perfmon --inh-caps=-all"
	run_to "$CDIR" caps $drop grep -E '^Cap(Prm|Eff|Bnd)' /proc/self/status
	run_to "$CDIR" run $drop "$MT" run --backend auto --cpus 0,1 --max-records "$MAXREC" \
		-o "$CDIR/run.json" -- "$PROGS/selfmig" running 23 1
	run_to "$CDIR" bpf $drop "$MT" run --backend bpf --cpus 0,1 -- true
	run_to "$CDIR" doctor $drop "$MT" doctor
	case_end
}

# A capture made the way trace-cmd users make one (every CPU, every task, the sched system),
# then `migtrace report` of it, and trace-cmd's own reading of its sched_migrate_task
# events to count against.  Then a second, small one to ship (the 6.12 one is checked in
# as tests/data/trace-cmd-6.12.dat): the same command with /dev/null bound over
# /proc/kallsyms in a mount namespace of its own (nothing else sees it), as trace-cmd
# otherwise copies them in (6.8 MB on 6.12, 1.2 MB compressed) and sched events never need
# them.  The first is not shipped: its size, counts and report are.  trace-cmd records
# through the top instance and turns its tracing_on off: put back as found.
c_report_capture() {
	case_begin report_capture
	command -v trace-cmd >"$CDIR/which" 2>&1
	on=$(cat /sys/kernel/tracing/tracing_on 2>/dev/null)
	for cap in full small; do
		dat=$WORK/$cap.dat
		set -- trace-cmd record -e sched -o "$dat" "$MT_ROOT/.output/workloads/wakeup" -t 4 -d 1
		if [ "$cap" = small ]; then
			set -- unshare -m --propagation private \
				sh -c 'mount --bind /dev/null /proc/kallsyms && exec "$@"' sh "$@"
		fi
		run_to "$CDIR" "${cap}_record" "$@"
		rm -f "$dat".cpu*
		[ -n "$on" ] && echo "$on" >/sys/kernel/tracing/tracing_on
		[ -s "$dat" ] || continue
		wc -c <"$dat" >"$CDIR/${cap}_bytes"
		# -F before -i: trace-cmd 3.1 applies a filter to the inputs named after it
		run_to "$CDIR" "${cap}_migrate" trace-cmd report -F sched_migrate_task -i "$dat"
		# -o: the run file, and the text on stdout, from one read of the capture
		run_to "$CDIR" "${cap}_report" "$MT" report -o "$CDIR/${cap}_report.json" "$dat"
	done
	[ -s "$WORK/small.dat" ] && cp "$WORK/small.dat" "$CDIR/capture.dat"
	# the checked-in capture, where the tree has it (the host): read by this machine's tools
	data=$MT_ROOT/tests/data/trace-cmd-6.12.dat
	if [ -s "$data" ]; then
		wc -c <"$data" >"$CDIR/data_bytes"
		run_to "$CDIR" data_migrate trace-cmd report -F sched_migrate_task -i "$data"
		run_to "$CDIR" data_report "$MT" report -o "$CDIR/data_report.json" "$data"
	fi
	rm -f "$WORK/full.dat" "$WORK/small.dat"
	case_end
}

# the tunable as validate will find it: its verdict must use the real value when readable
c_validate() {
	case_begin validate
	cat "$TUNABLE" >"$CDIR/tunable" 2>"$CDIR/tunable.err"
	# validate (the calibration with its chase, then the grid) took 110-190 s under TCG on a
	# busy host: it gets twice the per-command limit, and a line on the results port every 30 s
	# so that the host does not take its silence for a hang (check.py skips unknown MT- lines).
	# The calibration is user space alone, judged on the host by 10_calibrate and
	# 40_correlate: here the chase's 1 round, not 7 (its 672 trials took 44 of validate's
	# 55 s under TCG on 6.1), and the 2004 method against 128 KiB, not the guest's L2 (2 of
	# 2 rounds took 59-81 s of TCG on an EPYC host); the guest judges the verdict's kernel value.
	( while sleep 30; do emit "MT-ALIVE validate $(now)"; done ) &
	alive=$!
	one_limit=$CASE_TIMEOUT
	CASE_TIMEOUT=$((one_limit * 2))
	run_to "$CDIR" validate "$MT" validate --samples 4 --rounds 1 --size 128K \
		--rates 1000,max --ages 50,500,5000
	CASE_TIMEOUT=$one_limit
	kill "$alive" 2>/dev/null
	wait "$alive" 2>/dev/null
	case_end
}

# The tunable: read it, see migtrace report it (doctor and the run header: check.py reads
# the doctor and run_loads cases', run with it as found), write another value, see migtrace
# report that, restore, read it back.  Raw values only; check.py compares.
c_tunable() {
	case_begin tunable
	if cat "$TUNABLE" >"$CDIR/orig" 2>"$CDIR/orig.err"; then
		TUNABLE_ORIG=$(cat "$CDIR/orig")
	fi
	if [ -n "$TUNABLE_ORIG" ]; then
		new=2500000
		[ "$TUNABLE_ORIG" = "$new" ] && new=3500000
		echo "$new" >"$CDIR/new"
		rc=0
		{ echo "$new" >"$TUNABLE"; } 2>"$CDIR/write.err" || rc=1
		echo "$rc" >"$CDIR/write.rc"
		cat "$TUNABLE" >"$CDIR/after_write" 2>&1
		run_to "$CDIR" doctor_new "$MT" doctor
		run_to "$CDIR" run_new "$MT" run $BK_BPF --cpus 0,1 -o "$CDIR/run_new.json" -- true
		rc=0
		{ echo "$TUNABLE_ORIG" >"$TUNABLE"; } 2>"$CDIR/restore.err" || rc=1
		echo "$rc" >"$CDIR/restore.rc"
		cat "$TUNABLE" >"$CDIR/restored" 2>&1
		TUNABLE_ORIG=
	fi
	case_end
}

# migtrace sweep where the tunable is writable: a real sweep of three values with hackbench
# (each value read back, the original and sched_schedstats back at the end; 10 loops, not
# 50: each run took 6-13 s of TCG, 86 s of the case on 6.1, and a check needs only every
# run's wake-ups and witnesses, which 80 tasks x 10 messages give), then a sweep
# killed with SIGKILL mid-run (value and record left), a new sweep refused, `sweep
# --restore`, the original back.  Where it is not writable, the refusal.  Raw outputs only.
c_sweep() {
	case_begin sweep
	cat "$TUNABLE" >"$CDIR/orig" 2>"$CDIR/orig.err"
	orig=$(cat "$CDIR/orig" 2>/dev/null)
	writable=no
	[ -n "$orig" ] && { echo "$orig" >"$TUNABLE"; } 2>"$CDIR/writable.err" && writable=yes
	echo "$writable" >"$CDIR/writable"
	cat /proc/sys/kernel/sched_schedstats >"$CDIR/schedstats_orig" 2>&1
	command -v hackbench >"$CDIR/hackbench" 2>&1
	if [ "$writable" = yes ]; then
		TUNABLE_ORIG=$orig
		run_to "$CDIR" sweep "$MT" sweep --values 1ms,5ms,25ms --reps 2 --cpus 0,1 \
			-o "$CDIR/sweep.json" -- hackbench -g 2 -l 10
		cat "$TUNABLE" >"$CDIR/after" 2>&1
		cat /proc/sys/kernel/sched_schedstats >"$CDIR/schedstats_after" 2>&1
		ls /run/migtrace >"$CDIR/record_after" 2>&1
		"$MT" sweep --values 2ms,7ms -- sleep 100 >"$CDIR/kill.out" 2>"$CDIR/kill.err" &
		pid=$!
		i=0
		while [ "$(cat "$TUNABLE")" = "$orig" ] && [ $i -lt 300 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		sleep 1
		kill -9 "$pid"
		wait "$pid" 2>/dev/null
		cat "$TUNABLE" >"$CDIR/after_kill" 2>&1
		ls /run/migtrace >"$CDIR/record_after_kill" 2>&1
		run_to "$CDIR" stale "$MT" sweep --values 1ms,5ms -- true
		cat "$TUNABLE" >"$CDIR/after_stale" 2>&1
		run_to "$CDIR" restore "$MT" sweep --restore
		cat "$TUNABLE" >"$CDIR/after_restore" 2>&1
		ls /run/migtrace >"$CDIR/record_after_restore" 2>&1
		cat /proc/sys/kernel/sched_schedstats >"$CDIR/schedstats_after_restore" 2>&1
		restore_tunable
		[ "$(cat /proc/sys/kernel/sched_schedstats 2>/dev/null)" != \
		  "$(cat "$CDIR/schedstats_orig")" ] &&
			cat "$CDIR/schedstats_orig" >/proc/sys/kernel/sched_schedstats 2>/dev/null
	else
		run_to "$CDIR" sweep "$MT" sweep --values 1ms,5ms -- true
	fi
	case_end
}

# Cache-aware scheduling (7.2's CONFIG_SCHED_CACHE), in a boot of its own with two LLCs
# (matrix.sh: two sockets of two CPUs): three threads of one process that run 300 µs and
# sleep 700 µs, with llc_balancing enabled and then disabled, each a run whose text says what
# the moves did to the tasks' preferred LLC.  The run files stay here (a few MB over the
# serial port); the text says all check.py judges.  The knob is put back as it was; then
# `sweep --knob llc_balancing/enabled` changes it and must put it back itself.
c_cache_aware() {
	case_begin cache_aware
	knob=/sys/kernel/debug/sched/llc_balancing/enabled
	if [ -e "$knob" ]; then
		orig=$(cat "$knob")
		for en in 1 0; do
			echo "$en" >"$knob" 2>"$CDIR/knob$en.err"
			cat "$knob" >"$CDIR/knob$en"
			run_to "$CDIR" "run$en" "$MT" run $BK_BPF -o "$WORK/cache_aware$en.json" -- \
				"$MT_ROOT/.output/workloads/wakeup" -t 3 -r 300 -s 700 -d 2
			rm -f "$WORK/cache_aware$en.json"
		done
		echo "$orig" >"$knob"
		# sweep sets the knob, reads it back and restores it, as for the migration cost
		run_to "$CDIR" sweep "$MT" sweep --knob llc_balancing/enabled --values 0,1 \
			--reps 1 -o "$CDIR/sweep.json" -- "$MT_ROOT/.output/workloads/wakeup" \
			-t 3 -r 300 -s 700 -d 1
		cat "$knob" >"$CDIR/knob_after_sweep"
		echo "$orig" >"$CDIR/knob_orig"
	else
		echo "no $knob" >"$CDIR/absent"
	fi
	cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list >"$CDIR/llcs" 2>&1
	case_end
}

# The cases in their order.  MT_GUEST_CASES (commas or spaces) runs only those named, to
# look at some again without the rest (matrix.sh passes the host's MT_GUEST_CASES on).
ALL_CASES="env doctor run_loads scope selfmig_sleeping selfmig_running family balance \
wakeup ftrace ftrace_fallback report_capture validate tunable sweep cache_aware"
CASES=$(echo "${MT_GUEST_CASES:-$ALL_CASES}" | tr ',' ' ')

emit "MT-HELLO $(now) $(uname -r)"
for c in $CASES; do
	case " $ALL_CASES " in
	*" $c "*) "c_$c";;
	*) echo "guest.sh: no case $c (MT_GUEST_CASES; the cases: $ALL_CASES)" >&2;;
	esac
done

emit "MT-DONE $(now)"
rm -rf "$WORK"
