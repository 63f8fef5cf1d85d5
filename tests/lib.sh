# Shared helpers for the integration tests; sourced, never run.
# Each test reports through pass/fail/skip; tests/run.sh counts the lines in $MT_RESULTS.
MT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MT=${MT:-$MT_ROOT/migtrace}
MT_SAN=${MT_SAN:-$MT_ROOT/.output/migtrace-san}
MT_PROGS=$MT_ROOT/.output/tests/progs
MT_RESULTS=${MT_RESULTS:-/dev/stdout}
MT_TMP=$(mktemp -d /tmp/migtrace-test.XXXXXX)
trap 'rm -rf "$MT_TMP"' EXIT

# Each check's seconds go to $MT_TIMES (tests/run.sh prints the slowest): the time since this
# script's previous check, or its start, which is the work the check judged.
MT_TIMES=${MT_TIMES:-/dev/null}
_mt_since=${EPOCHREALTIME/[.,]/}
# mt_secs_since T0: the seconds since T0 (microseconds: $EPOCHREALTIME without its point), S.CC
mt_secs_since() {
	local us=$((${EPOCHREALTIME/[.,]/} - $1))
	printf '%d.%02d' $((us / 1000000)) $((us % 1000000 / 10000))
}
# mt_took NAME: "SECONDS check NAME" to $MT_TIMES; the clock starts again for the next check.
# mt_clock_restart: the clock starts again here, after work whose time was reported another
# way (a guest's cases, the fuzzers' own lines), so that the next check is not given it.
mt_took() {
	printf '%s\tcheck\t%s\n' "$(mt_secs_since "$_mt_since")" "$1" >>"$MT_TIMES"
	mt_clock_restart
}
mt_clock_restart() { _mt_since=${EPOCHREALTIME/[.,]/}; }
pass() { echo "PASS $1" >>"$MT_RESULTS"; echo "  ok    $1"; mt_took "$1"; }
fail() { echo "FAIL $1 $2" >>"$MT_RESULTS"; echo "  FAIL  $1: $2"; mt_took "$1"; }
skip() { echo "SKIP $1 $2" >>"$MT_RESULTS"; echo "  skip  $1: $2"; mt_took "$1"; }

# check NAME COMMAND...: pass when COMMAND succeeds, else fail with its last output line.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"; fi
}

# wait_until SECONDS CMD...: returns once CMD succeeds (tried every 0.1 s), or 1 after
# SECONDS.  wait_for FILE REGEX [SECONDS]: once a line of FILE matches the extended REGEX
# (a run prints "Tracing ..." once its programs are attached and the workload released),
# or 1 after SECONDS (30).  A test that signals a run waits on such an event, never on a
# sleep alone: on a loaded machine the attach has taken over a second.  The bound only
# ends a wait that would otherwise never end; a test passing in time never comes near it.
wait_until() {
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 10; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
wait_for() { wait_until "${3:-30}" grep -qE -- "$2" "$1"; }

# Checks that need an idle CPU (an active balance, a wake-up placement): the scheduler makes
# such a move only where a CPU is idle, and a CPU-bound process beside the suite leaves none.
# foreign_before, with nothing of the test's running, reads other work's load (in CPUs,
# tests/kernels/foreign_busy.sh); check_needs_idle NAME CMD... then checks as `check` does,
# reads it again, and where CMD fails while either reading was 0.5 CPU or more reports a
# skip that says so: the premise did not hold, and no move was the scheduler's right answer.
# A failure on a machine quiet before and after is still a failure.
foreign_before() { _mt_foreign=$(sh "$MT_ROOT/tests/kernels/foreign_busy.sh"); }
check_needs_idle() {
	local name=$1 out after
	shift
	if out=$("$@" 2>&1); then pass "$name"; return; fi
	after=$(sh "$MT_ROOT/tests/kernels/foreign_busy.sh")
	if awk -v a="${_mt_foreign:-0}" -v b="$after" 'BEGIN { exit !(a >= 0.5 || b >= 0.5) }'; then
		skip "$name" "no idle CPU: other work kept ${_mt_foreign:-?} CPUs busy before the run and $after after it: $(echo "$out" | tail -n 1)"
	else
		fail "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ') (other work: ${_mt_foreign:-?} CPUs busy before, $after after)"
	fi
}

# bpf_ok: may BPF tests run here?  Prints the reason when not.
bpf_ok() {
	if [ "$(id -u)" != 0 ]; then echo "not root"; return 1; fi
	if [ ! -r /sys/kernel/btf/vmlinux ]; then echo "no kernel BTF"; return 1; fi
	return 0
}

# bpf_skip NAME REASON: a BPF test that cannot run is a skip, but a failure under CI.
bpf_skip() {
	if [ "${CI:-}" = true ]; then fail "$1" "BPF test skipped under CI: $2"; else skip "$1" "$2"; fi
}

# json FILE PYTHON-EXPR: evaluates EXPR with the parsed file as `d`; exits non-zero if falsy.
# json FILE EXPR [SHOW]: EXPR over the parsed file d; on failure prints SHOW, evaluated too.
json() {
	python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
if not ($2):
    print(${3:-None})
    sys.exit(1)" "$1"
}

# need_bpf_pair NAME: BPF may run and two CPUs are online; otherwise reports NAME as a BPF skip
# (a failure under CI) and returns 1.
need_bpf_pair() {
	local why
	if ! why=$(bpf_ok); then bpf_skip "$1" "$why"; return 1; fi
	if [ "$(nproc)" -lt 2 ]; then bpf_skip "$1" "one CPU: nothing can migrate"; return 1; fi
	return 0
}

# in_private_tmp LEFT CMD...: runs CMD with a /tmp of its own (a new, empty tmpfs in a mount
# namespace of its own, so that no other test's files mix in), then writes to LEFT the names
# CMD left there.  CMD's output goes where this call's does; its status is returned.
# private_tmp_ok says whether such a /tmp can be made here (root, unshare).
# A tree under /tmp (a clone made there) would be hidden by the new /tmp: it is bound back in
# at its path, from the old directory the shell still stands in, and left out of the list.
in_private_tmp() {
	local left=$1 keep=
	shift
	case $MT_ROOT in /tmp/?*) keep=$MT_ROOT ;; esac
	unshare -m sh -c 'keep=$1 here=$2; shift 2
		if [ -n "$keep" ]; then cd "$keep" || exit 99; fi
		mount -t tmpfs mt-private-tmp /tmp || exit 99
		if [ -n "$keep" ]; then mkdir -p "$keep" && mount --no-canonicalize --bind . "$keep" || exit 99; fi
		cd "$here" 2>/dev/null || cd /
		"$@"; rc=$?
		top=${keep#/tmp/}; top=${top%%/*}
		ls -A /tmp | grep -vxF -- "${top:-/}" >&3; exit $rc' sh "$keep" "$PWD" "$@" 3>"$left"
}
private_tmp_ok() { unshare -m sh -c 'mount -t tmpfs mt-private-tmp /tmp' 2>/dev/null; }

# no_programs_left: no migtrace program of this test is loaded: none held by this script or
# a process below it, and none held by nobody.  Programs of other migtrace processes on the
# machine (another user's, another run's) are theirs; a program's holders are the processes
# with a descriptor of it or of a link to it (fdinfo's prog_id).  The kernel frees a dead
# process's programs after an RCU grace period: allow 2 s.
no_programs_left() {
	for _ in $(seq 20); do
		bpftool -j prog show 2>/dev/null | python3 -c '
import json, os, re, sys
me = int(sys.argv[1])
def parent(pid):
    try:
        return int(open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0
def ours(pid):
    while pid > 1 and pid != me:
        pid = parent(pid)
    return pid == me
mt = {p["id"] for p in json.load(sys.stdin) if p.get("name", "").startswith("mt_")}
if not mt:
    sys.exit(0)
holders = {}
def fdinfo(pid):
    try:
        fds = os.listdir("/proc/%s/fdinfo" % pid)
    except OSError:
        return
    for fd in fds:
        try:
            yield open("/proc/%s/fdinfo/%s" % (pid, fd)).read()
        except OSError:
            continue	# closed since the listing
for pid in filter(str.isdigit, os.listdir("/proc")):
    for info in fdinfo(pid):
        m = re.search(r"^prog_id:\s*(\d+)", info, re.M)
        if m and int(m.group(1)) in mt:
            holders.setdefault(int(m.group(1)), set()).add(int(pid))
left = [i for i in mt if not holders.get(i) or any(ours(h) for h in holders[i])]
sys.exit(1 if left else 0)' "$$" && return 0
		sleep 0.1
	done
	return 1
}
