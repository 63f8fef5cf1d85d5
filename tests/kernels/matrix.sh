#!/usr/bin/env bash
# The kernel matrix: migtrace's real BPF cases on Debian's own kernels, each booted under
# qemu (TCG: no KVM needed), plus the host's own kernel, reported per kernel as
#   kernel 6.1.0-57-cloud-amd64: N passed, N failed
# Each check is also a PASS/FAIL line in $MT_RESULTS (tests/run.sh counts them), named
# k6.1_selfmig_sleeping_23, k6.12_..., k6.1rt_..., khost_...
#
#   bash tests/kernels/matrix.sh [KERNEL...]     (`make test-kernels`; root; after `make all`)
#
# KERNEL is `host` or a Debian kernel package (a meta package is resolved with apt-cache
# depends), from the machine's own apt sources, or SUITE:PACKAGE from another Debian suite
# (bullseye:linux-image-cloud-amd64), fetched through a private apt configuration under
# $MT_KERNEL_CACHE/apt/SUITE, never the machine's sources; default: $MT_KERNELS, else the
# host and the kernels below.  Environment:
#   MT_KERNEL_CACHE    where the kernels are kept between runs (/var/cache/migtrace-kernels)
#   MT_KERNEL_JOBS     guests booted at once (default: one per host CPU)
#   MT_BOOT_TIMEOUT    seconds for a guest to start the suite (180)
#   MT_CASE_TIMEOUT    seconds per command inside the suite (180); a guest whose results
#                      port is silent for this plus 60 s is hung and killed
#   MT_BEAT_TIMEOUT    seconds without the guest's console heartbeat (every 5 s) after which
#                      its kernel is hung and killed (60)
#   MT_GUEST_TIMEOUT   seconds for a whole guest (900)
#   MT_GUEST_APPEND    extra kernel boot options for every guest (e.g. preempt=full)
#   MT_QEMU_ACCEL      qemu's -accel (tcg,thread=single; see boot_guest)
#   MT_QEMU_NICE       the guests' niceness (-15; see QEMU_NICE)
#   MT_GUEST_CASES     only these cases of guest.sh (e.g. "env,report_capture"), in every
#                      guest and on the host; the cases not run then fail as not run
#   CI=true            a kernel that cannot be fetched is a failure, not a skip
#
# How: tests/kernels/guest.sh runs the cases and ships raw outputs on a channel (the
# guest's second serial port, or a file for the host); tests/kernels/check.py judges them
# here.  The initramfs (busybox, the built binaries and their libraries, tests/kernels/init)
# is built into .output/kernels/; each kernel's suite runs in two boots (docs/testing.md),
# whose console logs and channels are kept in .output/kernels/<kernel>/boot0 and boot1, and
# the decoded outputs of both in .output/kernels/<kernel>/cases, for a look after a failure.
[ -n "${MT_RESULTS:-}" ] || . "$(dirname "$0")/../clean_start.sh"
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

# Standalone (make test-kernels) keeps its own results; under tests/run.sh they go to its file.
standalone=0
if [ -z "${MT_RESULTS:-}" ]; then
	standalone=1
	MT_RESULTS=$(mktemp /tmp/migtrace-kernels.XXXXXX)
	export MT_RESULTS
fi
. "$ROOT/tests/lib.sh"

CACHE=${MT_KERNEL_CACHE:-/var/cache/migtrace-kernels}
OUT=$ROOT/.output/kernels
BOOT_TIMEOUT=${MT_BOOT_TIMEOUT:-180}
CASE_TIMEOUT=${MT_CASE_TIMEOUT:-180}
BEAT_TIMEOUT=${MT_BEAT_TIMEOUT:-60}
GUEST_TIMEOUT=${MT_GUEST_TIMEOUT:-900}
SILENT_LIMIT=$((CASE_TIMEOUT + 60))
# A guest under single-threaded TCG (boot_guest) keeps one host thread busy, whatever its
# vCPUs: one guest per host CPU.
JOBS=${MT_KERNEL_JOBS:-$(nproc)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
# The guests run at nice -15: a neighbour's CPU-bound load at nice 0 then takes ~1/28 of a
# CPU from a guest, not up to half of it.  A guest's clock is the host's, so an emulator kept
# off its CPU stretches every age and latency its checks read (docs/testing.md, "Under
# load").  Each in a session of its own, whose autogroup gets that nice too: with
# kernel.sched_autogroup_enabled (Debian's default) CPU time is shared between sessions
# first, and a process's nice counts only inside its own.  -15, not the suite's own -10
# (tests/clean_start.sh): the work run beside the guests (the fuzzers, the package) takes a
# third of a guest's share where both want a CPU, and the CPU a guest leaves.
QEMU_NICE=${MT_QEMU_NICE:--15}
# stop_guests STATUS: on an interrupt, the guests too (their sessions are not the
# terminal's), then exit.
stop_guests() {
	local f
	for f in "$OUT"/*/boot*/qemu.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	exit "$1"
}
trap 'stop_guests 130' INT
trap 'stop_guests 143' TERM
trap 'stop_guests 129' HUP
# (the RT kernel first: the slowest under TCG, it starts first where no time is known yet)
# A kernel named KERNEL/reach runs the reach profile: one boot of the workload cases with
# both backends (PART_A) and the tunable, not the capture, validate and the sweep, whose code
# is user space's (docs/testing.md, "The time budget").  Those run on 6.12 and on 6.1-rt,
# whose release and event formats are 6.1's, the harder variant of it.
DEFAULT_KERNELS="host linux-image-rt-amd64 linux-image-cloud-amd64/reach \
linux-image-6.12-cloud-amd64 bullseye:linux-image-cloud-amd64/reach \
sid:linux-image-cloud-amd64/reach experimental:linux-image-cloud-amd64/reach"
if [ $# -gt 0 ]; then KERNELS="$*"; else KERNELS=${MT_KERNELS:-$DEFAULT_KERNELS}; fi

t_start=$EPOCHREALTIME
summary=()		# one line per kernel, printed again at the end
backend_rows=()		# one row per kernel of the closing table of both backends' counts

# elapsed T0: seconds since T0 (an $EPOCHREALTIME), one decimal.
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# unavailable NAME REASON: a kernel or tool the matrix cannot get: a skip, but a failure
# under CI=true (the matrix's BPF cases would silently not run).
unavailable() {
	if [ "${CI:-}" = true ]; then fail "$1" "$2 (a failure under CI=true)"; else skip "$1" "$2"; fi
}

# ---- prerequisites ----------------------------------------------------------------------

need_tools() {
	local t missing=""
	for t in qemu-system-x86_64 busybox cpio gzip python3 apt-get apt-cache dpkg-deb ldd hackbench \
		trace-cmd setpriv; do
		command -v "$t" >/dev/null || missing="$missing $t"
	done
	[ -z "$missing" ] && return 0
	echo "missing:$missing (run \`make deps\`: TEST_PKGS has qemu-system-x86, busybox-static, cpio, rt-tests and trace-cmd)"
	return 1
}

need_build() {
	local f
	for f in migtrace .output/workloads/wakeup .output/workloads/cachewalk \
		.output/tests/progs/selfmig .output/tests/progs/balance .output/tests/progs/family; do
		[ -x "$f" ] || { echo "$f is not built (run \`make all\` first)"; return 1; }
	done
}

# ---- the initramfs ----------------------------------------------------------------------

# build_initramfs: busybox, the binaries at their build-tree paths under /mt (so run finds
# its built-in workloads as in the tree), trace-cmd (the guest's captures) with
# libtraceevent's plugins, util-linux's setpriv (busybox's cannot drop from the bounding
# set), every shared library ldd names at its own path, the suite and /init; into
# $OUT/initramfs.cpio.gz.
build_initramfs() {
	local stage=$OUT/initramfs.d bins lib plugins
	rm -rf "$stage" && mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,mt} \
		"$stage/mt/.output/workloads" "$stage/mt/.output/tests/progs" || return 1
	cp "$(command -v busybox)" "$stage/bin/busybox" && ln -s busybox "$stage/bin/sh" || return 1
	cp migtrace "$stage/mt/" &&
		cp .output/workloads/wakeup .output/workloads/cachewalk "$stage/mt/.output/workloads/" &&
		cp .output/tests/progs/{selfmig,balance,family} "$stage/mt/.output/tests/progs/" &&
		cp tests/kernels/guest.sh tests/kernels/foreign_busy.sh "$stage/mt/" &&
		cp "$(command -v hackbench)" "$stage/usr/bin/hackbench" &&
		cp "$(command -v trace-cmd)" "$stage/usr/bin/trace-cmd" &&
		cp "$(command -v setpriv)" "$stage/usr/bin/setpriv" &&
		cp tests/kernels/init "$stage/init" || return 1
	chmod 755 "$stage/init"
	# trace-cmd loads these with dlopen (ldd does not name them): the sched_switch one
	# formats its report as on any Debian system
	plugins=$(dpkg -L libtraceevent1-plugin 2>/dev/null | sed -n 's,/plugin_[^/]*\.so$,,p' | head -n 1)
	if [ -n "$plugins" ] && [ -d "$plugins" ]; then
		mkdir -p "$stage$plugins" && cp "$plugins"/*.so "$stage$plugins/" || return 1
	fi
	bins="$stage/bin/busybox $stage/usr/bin/hackbench $stage/usr/bin/trace-cmd $stage/usr/bin/setpriv"
	bins="$bins $stage/mt/migtrace $stage/mt/.output/workloads/* $stage/mt/.output/tests/progs/*"
	[ -n "$plugins" ] && bins="$bins $stage$plugins/*.so"
	# shellcheck disable=SC2086 # a list of paths
	for lib in $(ldd $bins 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 ~ /^\(0x/ { print $1 }' | sort -u); do
		mkdir -p "$stage$(dirname "$lib")" && cp -L "$lib" "$stage$lib" || return 1
	done
	echo "root:x:0:0:root:/:/bin/sh" >"$stage/etc/passwd"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initramfs.cpio.gz.tmp" &&
		mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
}

# ---- Debian's kernels -------------------------------------------------------------------

apt_updated=" "
# apt_opts SUITE: sets APT_OPTS, the options of apt-get and apt-cache for SUITE: none for
# the machine's own sources (SUITE empty); else a private configuration in $CACHE/apt/SUITE
# (its own sources list, lists and archives: Debian's archive, signed by the machine's
# Debian keyring), made once.
APT_OPTS=()
apt_opts() {
	local suite=$1 dir=$CACHE/apt/$1
	APT_OPTS=(-o APT::Sandbox::User=root)
	[ -n "$suite" ] || return 0
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/parts" || return 1
	[ -s "$dir/sources.list" ] ||
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
			>"$dir/sources.list" || return 1
	APT_OPTS+=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/parts"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir" -o "Dir::Cache::Archives=$dir/archives")
}

# resolve [SUITE:]PKG: the concrete linux-image package that PKG names: a meta package
# depends on it (linux-image-cloud-amd64 -> linux-image-6.1.0-57-cloud-amd64), a concrete
# one depends on no linux-image.  Runs `apt-get update` once per suite when apt-cache does
# not know a package.
resolve() {
	local suite= pkg=$1 dep
	case $pkg in *:*) suite=${pkg%%:*}; pkg=${pkg#*:};; esac
	apt_opts "$suite" || return 1
	for _ in 1 2 3; do
		while ! apt-cache "${APT_OPTS[@]}" show "$pkg" >/dev/null 2>&1; do
			case $apt_updated in *" $suite "*) return 1;; esac
			apt_updated="$apt_updated$suite "
			apt-get "${APT_OPTS[@]}" update -qq >/dev/null 2>&1
		done
		dep=$(apt-cache "${APT_OPTS[@]}" depends "$pkg" 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-[^ <>]*\)$/\1/p' | head -n 1)
		[ -z "$dep" ] && { echo "$pkg"; return 0; }
		pkg=$dep
	done
	return 1
}

# fetch [SUITE:]PKG: $CACHE/PKG/vmlinuz and its config, downloading only when not cached.
# PKG holds them in /boot, or (Debian from 7.2 on) depends on linux-binary-KREL, which holds
# /usr/lib/modules/KREL/vmlinuz, and linux-base-KREL, its config.  (The guest's own kallsyms
# are added there after its first boot: see boot_guest.)
fetch() {
	local suite= pkg=$1 dir tmp rc krel
	case $pkg in *:*) suite=${pkg%%:*}; pkg=${pkg#*:};; esac
	dir=$CACHE/$pkg krel=${pkg#linux-image-}
	[ -s "$dir/vmlinuz" ] && return 0
	mkdir -p "$CACHE" || { echo "cannot create $CACHE (set MT_KERNEL_CACHE)"; return 1; }
	apt_opts "$suite" || { echo "cannot create $CACHE/apt/$suite"; return 1; }
	tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX") || return 1
	# as root, apt downloads without its _apt sandbox (and would warn about it)
	if ! (cd "$tmp" && apt-get "${APT_OPTS[@]}" download -qq "$pkg" >/dev/null 2>"$tmp/err"); then
		echo "apt-get download $pkg failed: $(tail -n 1 "$tmp/err")"
		rm -rf "$tmp"
		return 1
	fi
	# only the kernel and its config: the modules are not needed (the initramfs holds
	# everything)
	dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" ./boot 2>/dev/null
	if ! ls "$tmp"/boot/vmlinuz-* >/dev/null 2>&1 &&
		(cd "$tmp" && apt-get "${APT_OPTS[@]}" download -qq "linux-binary-$krel" \
			"linux-base-$krel" >/dev/null 2>"$tmp/err"); then
		mkdir -p "$tmp/boot"
		for d in "$tmp"/linux-binary-*.deb "$tmp"/linux-base-*.deb; do
			dpkg-deb --fsys-tarfile "$d" | tar -x -C "$tmp" --wildcards \
				"./usr/lib/modules/$krel/vmlinuz" "./usr/lib/modules/$krel/config" 2>/dev/null
		done
		mv "$tmp/usr/lib/modules/$krel/vmlinuz" "$tmp/boot/vmlinuz-$krel" 2>/dev/null
		mv "$tmp/usr/lib/modules/$krel/config" "$tmp/boot/config-$krel" 2>/dev/null
	fi
	if ! ls "$tmp"/boot/vmlinuz-* >/dev/null 2>&1; then
		echo "unpacking $pkg failed: no /boot/vmlinuz-* in it, nor a linux-binary-$krel: $(head -n 1 "$tmp/err")"
		rm -rf "$tmp"
		return 1
	fi
	mkdir -p "$dir.new" && cp "$tmp"/boot/vmlinuz-* "$dir.new/vmlinuz" &&
		cp "$tmp"/boot/config-* "$dir.new/config" && rm -rf "$dir" && mv "$dir.new" "$dir"
	rc=$?
	rm -rf "$tmp"
	[ "$rc" = 0 ] || echo "storing $pkg's kernel in $dir failed"
	return "$rc"
}

# prefix KREL: the test-name prefix: k6.1, k6.12, k6.1rt.
prefix() {
	local mm
	mm=$(sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p' <<<"$1")
	case $1 in *-rt-*) echo "k${mm}rt";; *) echo "k${mm}";; esac
}

# ---- one kernel -------------------------------------------------------------------------

# report PREFIX KREL DIR [--host]: judges DIR/channel.log (with DIR/why, why the suite
# stopped if it did, and DIR/boot_s), reports every check, and prints the kernel's figures
# and its "kernel K: N passed, N failed" line.
report() {
	local pfx=$1 krel=$2 dir=$3
	shift 3
	local np=0 nf=0 ns=0 kind name rest tests="?" cases="" counts="" verifier="" why boot
	local compl="" kc seen unseen diff ftr="" both="" capt="" fallback="" bs=0 fs=0 ks=0
	local agediff="" ages="" left=""
	local cs b f k
	why=$(cat "$dir/why" 2>/dev/null)
	boot=$(cat "$dir/boot_s" 2>/dev/null || echo "-")
	# the checks are judged here at once: their time is the guest's, reported per case
	mt_clock_restart
	# one check for the suite itself: it ran to its end, or why not (the cases that did not
	# run then fail with a pointer here rather than the same long reason each)
	if [ -z "$why" ] && grep -q '^MT-DONE' "$dir/channel.log" 2>/dev/null; then
		pass "${pfx}_suite_completed"; np=$((np + 1))
	else
		fail "${pfx}_suite_completed" "${why:-the suite did not end (no MT-DONE on $dir/channel.log)}"
		nf=$((nf + 1))
		why="see ${pfx}_suite_completed"
	fi
	python3 tests/kernels/check.py "$@" --prefix "$pfx" --why "$why" "$dir/channel.log" "$dir/cases" \
		>"$dir/check.txt" 2>&1 ||
		echo "FAIL check_py tests/kernels/check.py failed: $(tail -n 1 "$dir/check.txt")" >>"$dir/check.txt"
	while read -r kind name rest; do
		case $kind in
		PASS) pass "${pfx}_$name"; np=$((np + 1));;
		FAIL) fail "${pfx}_$name" "$rest"; nf=$((nf + 1));;
		SKIP) skip "${pfx}_$name" "$rest"; ns=$((ns + 1));;
		NOTE) echo "    note: $name $rest";;
		FIG)
			case $name in
			tests_s) tests=$rest;;
			case)
				cases="$cases ${rest% *} ${rest##* }s,"
				printf '%s\tcase\t%s\n' "${rest##* }" "${pfx}_${rest% *}" >>"$MT_TIMES";;
			selfmig_*|family_*) counts="$counts ${name} ${rest},";;
			wakeup) counts="$counts wakeup: ${rest},";;
			balance_*) counts="$counts ${name}: ${rest:-none},";;
			# "kernel K seen S unseen U difference D": the closing figures of every run
			completeness_*)
				read -r _ kc _ seen _ unseen _ diff <<<"$rest"
				[ "$unseen" = 0 ] && unseen="" || unseen=" ($unseen unseen)"
				compl="$compl ${name#completeness_} $kc/$seen$unseen diff $diff,";;
			verifier) verifier=$rest;;
			# "CASE BPF FTRACE KERNEL": one workload run traced by both backends at once
			backends)
				read -r cs b f k <<<"$rest"
				both="$both $cs $b/$f/$k,"
				[ "$b" != - ] && bs=$((bs + b))
				[ "$f" != - ] && fs=$((fs + f))
				[ "$k" != - ] && ks=$((ks + k));;
			capture) capt="$capt $rest;";;
			ftrace_fallback) fallback=$rest;;
			# "CASE BPF b, ftrace f, kernel k (BPF unseen u); ages within N ns"
			ftrace_cross) agediff="$agediff ${rest%% *} ${rest##* within },";;
			# "CASE median F µs (BPF, the same run: B µs)"
			ftrace_age)
				read -r cs _ f _ _ _ _ _ b _ <<<"$rest"
				ages="$ages $cs $f/$b µs,";;
			ftrace_*) ftr="$ftr ${name#ftrace_} ${rest},";;
			# the sweep's table as the guest printed it, a line at a time
			sweep) echo "    sweep: ${rest#| }";;
			left_out) left=" (reach profile: not run here: $rest)";;
			cache_aware) echo "    cache-aware scheduling, $rest";;
			esac;;
		esac
	done <"$dir/check.txt"
	echo "  figures: boot ${boot} s, tests ${tests} s"
	echo "  migrations counted/expected:${counts%,}"
	echo "  completeness (kernel se.nr_migrations/records):${compl%,}"
	echo "  case durations:${cases%,}"
	[ -n "$verifier" ] && echo "  verifier: $verifier"
	echo "  ftrace backend:${ftr%,}"
	echo "  both backends at once (BPF/ftrace/kernel, less fork placements):${both%,}"
	echo "  the same moves' ages, largest difference ftrace - BPF:${agediff%,}"
	echo "  median ages, ftrace/BPF of the same runs:${ages%,}"
	echo "  trace-cmd captures:${capt%;}"
	[ -n "$fallback" ] && echo "  auto without CAP_BPF/SYS_ADMIN/PERFMON: $fallback"
	local cap_counts
	# the first capture's counts: the guests' full one, the host's checked-in one
	cap_counts=$(sed -n 's/^ \([a-z]*\) [0-9?]* bytes, migtrace report \([^,]*\), trace-cmd report \([^;]*\);.*/\2 \/ \3 (\1)/p' <<<"$capt")
	backend_rows+=("$(printf '%-34s %9s %13s %13s   %s' "$krel" "$bs" "$fs" "$ks" "${cap_counts:--}")")
	local line="kernel $krel: $np passed, $nf failed"
	[ "$ns" != 0 ] && line="$line, $ns skipped"
	echo "$line"
	summary+=("$line (boot ${boot} s, tests ${tests} s)${verifier:+; $verifier}$left")
}

# run_host: the suite on the host's own kernel, no qemu.
run_host() {
	local dir=$OUT/host krel why t0 rc cases=${MT_GUEST_CASES:-} left=()
	krel=$(uname -r)
	# every case but validate, which 40_correlate runs on this kernel in earnest (its
	# verdict, regime and kernel value), and which here would be the matrix's alone time
	if [ -z "$cases" ]; then
		cases="$PART_A,report_capture,tunable,sweep"
		left=(--left-out validate)
	fi
	echo "== kernel $krel (host)"
	if ! why=$(bpf_ok); then
		unavailable khost "the host's kernel cannot run BPF here: $why"
		summary+=("kernel $krel (host): not run: $why")
		return
	fi
	rm -rf "$dir" && mkdir -p "$dir"
	t0=$EPOCHREALTIME
	# the suite's own per-command timeouts bound it; this one covers the suite itself
	MT_ROOT=$ROOT MT_CHANNEL=$dir/channel.log MT_CASE_TIMEOUT=$CASE_TIMEOUT MT_WORK=$dir/work \
		MT_GUEST_CASES=$cases timeout -k 10 "$GUEST_TIMEOUT" sh tests/kernels/guest.sh \
		2>"$dir/console.log"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "the suite on the host ran over $GUEST_TIMEOUT s and was killed (MT_GUEST_TIMEOUT)" >"$dir/why"
	fi
	echo "   suite ran in $(elapsed "$t0") s"
	printf '%s\tguest\t%s\n' "$(elapsed "$t0")" "kernel $krel (host)" >>"$MT_TIMES"
	report khost "$krel (host)" "$dir" --host "${left[@]}"
}

# open_case DIR: the case the guest is in (started, not ended), from its channel.
open_case() {
	awk '$1 == "MT-CASE" { c = $2 } $1 == "MT-END" && $2 == c { c = "" } END { print c }' \
		"$1/channel.log" 2>/dev/null
}

# boot_guest PKG KREL DIR CASES PART KEY [SMP]: boots one kernel with the initramfs to run
# guest.sh's CASES (commas), and watches it until the suite ends, it hangs or it runs over
# time; leaves DIR/channel.log, console.log, boot_s, and DIR/why when the suite did not end
# normally.  PART (0, 1) names the boot in the progress, which goes to stdout; KEY
# (PROFILE.PART) the wall time kept for the next run's order; SMP qemu's -smp (2).
boot_guest() {
	local pkg=$1 krel=$2 dir=$3 cases=$4 part=$5 key=$6 smp=${7:-2} why="" qpid t0 tb="" now size last_size=0 last_change
	local stage csize last_csize=0 last_beat crash syms=$CACHE/$pkg/kallsyms ship=0
	# the guest ships its kallsyms when they are not cached yet (once per kernel)
	[ -s "$syms" ] || ship=1
	t0=$EPOCHREALTIME
	# Two serial ports: ttyS0 the console (printk, the suite's progress), ttyS1 the results.
	# Unknown KEY=VALUE boot options reach /init as environment variables.  tsc=reliable:
	# under TCG the clocksource watchdog sees the emulated TSC drift and marks it unstable,
	# and patching sched_clock's static key at run time then crashed 6.12 (int3 Oops in
	# sched_clock_cpu): that is the emulator, not the kernel under test.  noirqdebug: on the
	# RT kernel (threaded IRQs) the emulated UART's TX interrupts look unhandled, and the
	# "nobody cared" detector disabled IRQ 3, the results port, mid-transfer.  nokaslr and
	# the monitor socket: a hung guest's vCPUs are named with its kallsyms (vcpus.py).
	# In a session of its own, niced with its autogroup: see QEMU_NICE.
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
	setsid sh -c 'echo "$0" >/proc/self/autogroup 2>/dev/null; exec nice -n "$0" "$@"' \
		"$QEMU_NICE" qemu-system-x86_64 -machine q35 -accel "${MT_QEMU_ACCEL:-tcg,thread=single}" -cpu max -smp "$smp" \
		-m 2048 -nographic -no-reboot \
		-nic none -monitor "unix:$dir/monitor.sock,server=on,wait=off" \
		-kernel "$CACHE/$pkg/vmlinuz" -initrd "$OUT/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=5 tsc=reliable noirqdebug nokaslr MT_CASE_TIMEOUT=$CASE_TIMEOUT MT_SHIP_KALLSYMS=$ship MT_GUEST_CASES=$cases ${MT_GUEST_APPEND:-}" \
		-serial "file:$dir/console.log" -serial "file:$dir/channel.log" \
		</dev/null >"$dir/qemu.log" 2>&1 &
	qpid=$!
	echo "$qpid" >"$dir/qemu.pid"	# for stop_guests
	last_change=$EPOCHREALTIME
	last_beat=$EPOCHREALTIME
	# Boot ends at MT-HELLO on the results port.  The kernel is hung when its console (with a
	# heartbeat every 5 s) is silent for BEAT_TIMEOUT s; the suite is stuck when the results
	# port is silent for SILENT_LIMIT s; the guest is killed past GUEST_TIMEOUT.  The suite
	# ends with MT-DONE and the guest powers off.
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 0.2
		now=$EPOCHREALTIME
		size=$(stat -c %s "$dir/channel.log" 2>/dev/null || echo 0)
		if [ "$size" != "$last_size" ]; then last_size=$size; last_change=$now; fi
		csize=$(stat -c %s "$dir/console.log" 2>/dev/null || echo 0)
		if [ "$csize" != "$last_csize" ]; then last_csize=$csize; last_beat=$now; fi
		if [ -z "$tb" ] && grep -q '^MT-HELLO' "$dir/channel.log" 2>/dev/null; then
			tb=$now
			elapsed "$t0" >"$dir/boot_s"
			echo "   $krel: boot $((part + 1)): booted in $(cat "$dir/boot_s") s"
		fi
		if [ -z "$tb" ] && [ "$(elapsed "$t0" | cut -d. -f1)" -ge "$BOOT_TIMEOUT" ]; then
			why="kernel $krel did not start the suite within $BOOT_TIMEOUT s (MT_BOOT_TIMEOUT); qemu killed"
			break
		fi
		if grep -q '^MT-DONE' "$dir/channel.log" 2>/dev/null; then
			# poweroff -f follows at once; give it 30 s
			for _ in $(seq 150); do kill -0 "$qpid" 2>/dev/null || break; sleep 0.2; done
			break
		fi
		if [ -n "$tb" ] && [ "$(elapsed "$last_beat" | cut -d. -f1)" -ge "$BEAT_TIMEOUT" ]; then
			stage=$(open_case "$dir")
			why="kernel $krel hung in case ${stage:-?}: no heartbeat on its console for $BEAT_TIMEOUT s (MT_BEAT_TIMEOUT); vCPUs: $(python3 tests/kernels/vcpus.py "$dir/monitor.sock" "$syms" "$dir/channel.log" 2>&1); qemu killed"
			break
		fi
		if [ -n "$tb" ] && [ "$(elapsed "$last_change" | cut -d. -f1)" -ge "$SILENT_LIMIT" ]; then
			stage=$(open_case "$dir")
			why="kernel $krel stuck in case ${stage:-?}: nothing on the results port for $SILENT_LIMIT s; qemu killed"
			break
		fi
		if [ "$(elapsed "$t0" | cut -d. -f1)" -ge "$GUEST_TIMEOUT" ]; then
			stage=$(open_case "$dir")
			why="kernel $krel ran over $GUEST_TIMEOUT s (MT_GUEST_TIMEOUT) in case ${stage:-?}; qemu killed"
			break
		fi
	done
	if kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null
		sleep 1
		kill -9 "$qpid" 2>/dev/null
	fi
	wait "$qpid" 2>/dev/null
	rm -f "$dir/qemu.pid"
	if [ -z "$why" ] && ! grep -q '^MT-DONE' "$dir/channel.log" 2>/dev/null; then
		stage=$(open_case "$dir")
		why="the guest (kernel $krel) stopped before the suite ended${stage:+, in case $stage}"
		[ -s "$dir/qemu.log" ] && why="$why; qemu: $(tail -n 1 "$dir/qemu.log")"
	fi
	# a kernel crash says more than "stopped": name its first line
	crash=$(grep -a -m 1 -oE '(Kernel panic|Oops|BUG:|general protection fault|irq [0-9]+: nobody cared|RIP:).*' "$dir/console.log" 2>/dev/null)
	[ -n "$crash" ] && why="${why:+$why; }guest kernel: $crash"
	if [ -n "$why" ]; then
		echo "$why; console: $dir/console.log" >"$dir/why"
		echo "   $why"
		echo "   last console lines:"
		grep -avE '^mt-(guest|beat)' "$dir/console.log" 2>/dev/null | tail -n 8 | sed 's/^/     | /'
	fi
	echo "   $krel: boot $((part + 1)): guest wall time $(elapsed "$t0") s"
	printf '%s\tguest\t%s\n' "$(elapsed "$t0")" "kernel $krel, boot $((part + 1))" >>"$MT_TIMES"
	# the order of the next run's boots (longest first) is made from this
	[ -z "${MT_GUEST_CASES:-}" ] && elapsed "$t0" | cut -d. -f1 >"$CACHE/$pkg/wall_s.$key.tmp" &&
		mv "$CACHE/$pkg/wall_s.$key.tmp" "$CACHE/$pkg/wall_s.$key"
}

# ---- main -------------------------------------------------------------------------------

# guest.sh's cases in two boots of about equal time under TCG (6.1: 75 s and 70 s): the
# workload cases with both backends, then the capture, validate, the tunable and the sweep.
# Every case of guest.sh is in one of them (check.py fails a case that did not run).
PART_A="env,doctor,run_loads,scope,selfmig_sleeping,selfmig_running,family,balance,wakeup,ftrace,ftrace_fallback"
PART_B="report_capture,validate,tunable,sweep"
# Cache-aware scheduling (CONFIG_SCHED_CACHE, 7.2) needs two LLCs to prefer one: a boot of its
# own, with two sockets of two CPUs (an LLC each under qemu's -cpu max), on the first kernel
# of the list built with it (7.2 by default: 7.3-rc's a second time cost the suite ~15 s of
# its budget for the same code).  The other cases keep the two CPUs they were written for.
PART_LLC="cache_aware"
SMP_LLC="4,sockets=2,cores=2,threads=1"

# merge_boots DIR N: the N boots' results in DIR/boot0 .. as one suite's, in DIR: their
# channels end to end (the first's hello, the last's end; a boot that did not end has said
# so in its why, which fails the suite), their whys, the first boot's boot time.
merge_boots() {
	local dir=$1 n=$2 i last=$(($2 - 1)) drop
	: >"$dir/channel.log"
	: >"$dir/why.tmp"
	for ((i = 0; i < n; i++)); do
		[ -f "$dir/boot$i/progress.log" ] && cat "$dir/boot$i/progress.log"
		drop=(-e '^MT-NONE')
		[ "$i" != 0 ] && drop+=(-e '^MT-HELLO')
		[ "$i" != "$last" ] && drop+=(-e '^MT-DONE')
		grep -av "${drop[@]}" "$dir/boot$i/channel.log" >>"$dir/channel.log" 2>/dev/null
		[ -s "$dir/boot$i/why" ] && echo "boot $((i + 1)) of $n: $(cat "$dir/boot$i/why")" >>"$dir/why.tmp"
	done
	if [ -s "$dir/why.tmp" ]; then tr '\n' ' ' <"$dir/why.tmp" >"$dir/why"; fi
	rm -f "$dir/why.tmp"
	cp "$dir/boot0/boot_s" "$dir/boot_s" 2>/dev/null
}

echo "kernel matrix: $KERNELS"
ok=1
if [ "$(id -u)" != 0 ]; then
	unavailable kernel_matrix "not root: the matrix needs root (apt-get, BPF, the tunable)"
	ok=0
elif ! why=$(need_tools) || ! why=$(need_build); then
	unavailable kernel_matrix "$why"
	ok=0
fi
if [ "$ok" = 1 ]; then
	mkdir -p "$OUT"
	if ! build_initramfs; then
		fail kernel_matrix_initramfs "building $OUT/initramfs.cpio.gz failed (see the cp/cpio error above)"
		ok=0
	fi
fi
guests=()		# "PKG KREL PREFIX PROFILE" of each kernel fetched (full or reach)
run_the_host=0
if [ "$ok" = 1 ]; then
	for k in $KERNELS; do
		if [ "$k" = host ]; then run_the_host=1; continue; fi
		profile=full
		case $k in */reach) k=${k%/reach}; profile=reach;; esac
		if ! pkg=$(resolve "$k"); then
			unavailable "kernel_${k//:/_}_fetch" "apt-cache cannot resolve $k to a linux-image package (even after apt-get update): check /etc/apt/sources.list, or $CACHE/apt/${k%%:*} for SUITE:PACKAGE"
			summary+=("$k: not run: cannot resolve the package")
			continue
		fi
		krel=${pkg#linux-image-}
		pfx=$(prefix "$krel")
		case $k in *:*) spec=${k%%:*}:$pkg;; *) spec=$pkg;; esac
		if ! err=$(fetch "$spec"); then
			unavailable "${pfx}_fetch" "kernel $krel: $err (network? apt sources?)"
			summary+=("kernel $krel: not run: $err")
			continue
		fi
		echo "kernel $krel: $pkg, $CACHE/$pkg/vmlinuz"
		guests+=("$pkg $krel $pfx $profile")
	done
fi
# The host first and alone: its balance cases need idle CPUs, which running guests are not.
[ "$run_the_host" = 1 ] && run_host
if [ "${#guests[@]}" -gt 0 ]; then
	# Each kernel's suite in two halves of about equal time, each booted on its own (a boot
	# costs 3-6 s): on 2 CPUs, three whole guests of ~150 s left a CPU idle for the third's
	# whole run, six halves pack both.  The reach profile: one boot.  MT_GUEST_CASES given:
	# one boot of those, on every kernel.
	# parts_of PROFILE PKG: sets parts, the boots' case lists, smps, their qemu -smp, and
	# left_out, the cases not run
	parts_of() {
		left_out=
		if [ -n "${MT_GUEST_CASES:-}" ]; then
			parts=("$(echo "$MT_GUEST_CASES" | tr ' ' ,)")
			smps=(2)
			case ",${parts[0]}," in *",$PART_LLC,"*) smps=("$SMP_LLC");; esac
			return
		elif [ "$1" = reach ]; then
			parts=("$PART_A,tunable")
			smps=(2)
			left_out=report_capture,validate,sweep
		else
			parts=("$PART_A" "$PART_B")
			smps=(2 2)
		fi
		if [ "$2" = "$llc_pkg" ]; then
			parts+=("$PART_LLC")
			smps+=("$SMP_LLC")
		fi
	}
	llc_pkg=
	for g in "${guests[@]}"; do
		read -r pkg _ _ _ <<<"$g"
		if grep -q '^CONFIG_SCHED_CACHE=y' "$CACHE/$pkg/config" 2>/dev/null; then
			llc_pkg=$pkg
			break
		fi
	done
	echo "== ${#guests[@]} guests under qemu (TCG), each in the boots its profile takes, $JOBS at a time"
	# the longest first (the part's last wall time, kept beside its kernel; one not run yet
	# counts as longest), so that the last to start is a short one
	mapfile -t order < <(for g in "${guests[@]}"; do
		read -r pkg _ _ profile <<<"$g"
		parts_of "$profile" "$pkg"
		for i in "${!parts[@]}"; do
			printf '%s\t%s %s\n' "$(cat "$CACHE/$pkg/wall_s.$profile.$i" 2>/dev/null || echo 99999)" "$g" "$i"
		done
	done | sort -s -t "$(printf '\t')" -k1,1 -rn | cut -f2-)
	for g in "${guests[@]}"; do
		read -r pkg krel pfx _ <<<"$g"
		rm -rf "${OUT:?}/$krel" && mkdir -p "$OUT/$krel"
	done
	for j in "${order[@]}"; do
		read -r pkg krel pfx profile i <<<"$j"
		parts_of "$profile" "$pkg"
		dir=$OUT/$krel/boot$i
		mkdir -p "$dir"
		if [ "$JOBS" -le 1 ]; then
			boot_guest "$pkg" "$krel" "$dir" "${parts[$i]}" "$i" "$profile.$i" "${smps[$i]}"
		else
			while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
			boot_guest "$pkg" "$krel" "$dir" "${parts[$i]}" "$i" "$profile.$i" "${smps[$i]}" >"$dir/progress.log" 2>&1 &
		fi
	done
	wait
	for g in "${guests[@]}"; do
		read -r pkg krel pfx profile <<<"$g"
		parts_of "$profile" "$pkg"
		echo "== kernel $krel${left_out:+ (reach: $left_out not run here)}"
		merge_boots "$OUT/$krel" "${#parts[@]}"
		llc=()
		case ",${parts[*]}," in *"$PART_LLC"*) llc=(--cache-aware);; esac
		report "$pfx" "$krel" "$OUT/$krel" ${left_out:+--left-out "$left_out"} "${llc[@]}"
		# keep the kallsyms the guest shipped (first boot of this kernel) beside its vmlinuz
		if [ ! -s "$CACHE/$pkg/kallsyms" ] && [ -s "$OUT/$krel/cases/env/kallsyms" ]; then
			cp "$OUT/$krel/cases/env/kallsyms" "$CACHE/$pkg/kallsyms.tmp" &&
				mv "$CACHE/$pkg/kallsyms.tmp" "$CACHE/$pkg/kallsyms"
		fi
	done
fi

echo "== kernel matrix in $(elapsed "$t_start") s"
for l in "${summary[@]}"; do echo "  $l"; done
if [ "${#backend_rows[@]}" -gt 0 ]; then
	echo "== both backends per kernel: the migrations (less fork placements) of the 8 workload"
	echo "   cases (selfmig x2, family, balance x4, wakeup), each run traced by both at once; kernel:"
	echo "   the traced tasks' se.nr_migrations (read by the BPF run); capture: migtrace report of a"
	echo "   \`trace-cmd record -e sched\` capture / trace-cmd report's sched_migrate_task events"
	printf '  %-34s %9s %13s %13s   %s\n' kernel "BPF count" "ftrace count" "kernel count" \
		"capture: report / trace-cmd"
	for l in "${backend_rows[@]}"; do echo "  $l"; done
fi
# The figures of a whole matrix (every default kernel, every case) are the project's record
# of what each kernel allows: written to .output/kernels/kernel-matrix.md (temp file +
# rename) by the run, never by hand, and put in docs/ by `make matrix-doc` after a green run
# (docs/testing.md, "Kernels and hosts: the matrix"): writing into the tree itself would
# leave a test run's checkout modified, and its `git describe` "-dirty".  A part run writes
# nothing.
if [ -z "${MT_GUEST_CASES:-}" ] && [ "$KERNELS" = "$DEFAULT_KERNELS" ]; then
	md=$OUT/kernel-matrix.md
	{
		echo "# The kernel matrix, as the last whole run found it"
		echo
		echo "Generated by \`tests/kernels/matrix.sh\` (\`make test\`, \`make test-kernels\`) on"
		echo "$(date -u '+%Y-%m-%d %H:%M') UTC; host: $(uname -r), $(nproc) CPUs,"
		echo "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)."
		echo "Do not edit: the next whole run writes it again.  What each row means:"
		echo "[testing.md](testing.md), \"Kernels and hosts: the matrix\"."
		echo
		echo '```'
		echo "kernel matrix in $(elapsed "$t_start") s"
		for l in "${summary[@]}"; do echo "  $l"; done
		if [ "${#backend_rows[@]}" -gt 0 ]; then
			echo
			echo "both backends per kernel (migrations less fork placements of the 8 workload cases):"
			printf '  %-34s %9s %13s %13s   %s\n' kernel "BPF count" "ftrace count" \
				"kernel count" "capture: report / trace-cmd"
			for l in "${backend_rows[@]}"; do echo "  $l"; done
		fi
		echo '```'
	} >"$md.tmp" && mv "$md.tmp" "$md"
fi
if [ "$standalone" = 1 ]; then
	bash "$ROOT/tests/tally.sh" "$MT_RESULTS"
	status=$?
	rm -f "$MT_RESULTS"
	exit $status
fi
