#!/usr/bin/env bash
# Capabilities: migtrace run needs CAP_BPF and CAP_PERFMON, not root; doctor and run name the
# capability that is missing; the workload does not inherit the tracer's capabilities.
source "$(dirname "$0")/../lib.sh"

# as_user CAPS CMD...: CMD as nobody, with only CAPS (e.g. "+bpf,+perfmon", or "" for none)
# in its inheritable, permitted, effective and ambient sets.
as_user() {
	local caps=$1
	shift
	if [ -n "$caps" ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="$caps" \
			--ambient-caps="$caps" "$@"
	else
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"
	fi
}

if ! need_bpf_pair caps_bpf_perfmon_enough; then
	exit 0
fi
if ! command -v setpriv >/dev/null; then
	fail caps_bpf_perfmon_enough "setpriv (util-linux) is not installed"
	exit 0
fi
if ! grep -qE '^CapBnd:' /proc/self/status || ! setpriv --inh-caps=+bpf,+perfmon true 2>/dev/null; then
	bpf_skip caps_bpf_perfmon_enough "CAP_BPF or CAP_PERFMON is not in this process's bounding set"
	exit 0
fi

# A tree nobody can read and a directory it can write: the clone may sit under a home
# directory it cannot enter.  The binary finds its workloads beside it (.output/workloads).
tree=$MT_TMP/tree
mkdir -p "$tree/.output" "$MT_TMP/out"
cp -p "$MT" "$tree/migtrace"
cp -pr "$MT_ROOT/.output/workloads" "$tree/.output/"
chmod -R a+rX "$MT_TMP"
chmod 1777 "$MT_TMP/out"

# 1. CAP_BPF + CAP_PERFMON are enough for a whole run, files included.  cachewalk's controlled
#    experiment moves itself (sched_setaffinity), so there are migrations to count whatever
#    else the machine runs: the wake-up workload once made none beside a CPU-bound process.
out=$(cd "$MT_TMP/out" && as_user +bpf,+perfmon "$tree/migtrace" run -o caps.json cachewalk \
	--controlled --samples 2 --ages 50 2>&1)
rc=$?
check caps_bpf_perfmon_enough bash -c '[ "$1" = 0 ] || { echo "rc $1: $2"; exit 1; }' _ "$rc" "$(tail -n 3 <<<"$out")"
check caps_run_file_written json "$MT_TMP/out/caps.json" \
	"d['stats']['migrations'] > 0 and d['stats']['completeness']['difference'] == 0" \
	"(d['stats']['migrations'], d['stats']['completeness'])"
check caps_run_file_owned_by_user test "$(stat -c %U "$MT_TMP/out/caps.json")" = nobody
out=$(cd "$MT_TMP/out" && as_user +bpf,+perfmon "$tree/migtrace" doctor 2>&1)
check caps_doctor_privileges_ok grep -qE '^ok +privileges +uid [0-9]+; CAP_SYS_ADMIN no, CAP_BPF yes, CAP_PERFMON yes' <<<"$out"

# 2. The workload runs without the tracer's capabilities.
out=$(cd "$MT_TMP/out" && as_user +bpf,+perfmon "$tree/migtrace" run -- \
	sh -c 'grep -E "^Cap(Eff|Amb):" /proc/self/status' 2>/dev/null)
check caps_workload_has_none bash -c '[ "$(grep -c ":\s*0000000000000000$" <<<"$1")" = 2 ] || { echo "$1"; exit 1; }' _ "$out"

# 3. One missing: doctor and run name it; run exits 1 in one line before anything loads.
out=$(cd "$MT_TMP/out" && as_user +bpf "$tree/migtrace" doctor 2>&1)
check caps_doctor_names_perfmon grep -qE '^missing +privileges +uid [0-9]+ lacks CAP_PERFMON: ' <<<"$out"
out=$(cd "$MT_TMP/out" && as_user "" "$tree/migtrace" doctor 2>&1)
check caps_doctor_names_both grep -qE '^missing +privileges +uid [0-9]+ lacks CAP_BPF and CAP_PERFMON: ' <<<"$out"
out=$(cd "$MT_TMP/out" && as_user +perfmon "$tree/migtrace" run wakeup -t 2 -d 1 2>&1)
rc=$?
check caps_run_names_bpf bash -c '[ "$1" = 1 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -q "needs CAP_BPF to load" <<<"$2"' _ "$rc" "$out"
check caps_nothing_left no_programs_left
