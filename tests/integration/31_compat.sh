#!/usr/bin/env bash
# The BPF backend as it loads on 5.10, tried on this kernel: MIGTRACE_BPF_AS=5.10 takes the
# paths a kernel without task storage, bpf_get_current_task_btf() (5.11) and BPF atomics
# (5.12) needs (docs/testing.md, "Kernels and hosts: the matrix"): the object built without
# atomics, no task-storage map, no unit probes.  The counts stay exact; the reduced mode is
# named; --unit is refused with BPF and taken by ftrace.  The 5.10 guest of the kernel matrix
# runs the same object on the real kernel.
source "$(dirname "$0")/../lib.sh"

need_bpf_pair compat_510_family_exact || exit 0
export MIGTRACE_BPF_AS=5.10

# 1. Threads and children, and the kernel's own count: exact.
"$MT" run --cpus 0,1 -o "$MT_TMP/fam.json" -- "$MT_PROGS/family" 5 7 >"$MT_TMP/fam.out" 2>&1
tid=$(awk '/^thread/ {print $2}' "$MT_TMP/fam.out")
cpid=$(awk '/^child/ {print $2}' "$MT_TMP/fam.out")
check compat_510_family_exact json "$MT_TMP/fam.json" \
	"len([m for m in d['migrations'] if m['pid'] == ${tid:-0} and m['cause'] == 'affinity']) == 5 and len([m for m in d['migrations'] if m['pid'] == ${cpid:-0} and m['cause'] == 'affinity']) == 7 and d['stats']['completeness']['difference'] == 0 and d['stats']['completeness']['kernel_counted'] > 0" \
	"[(m['pid'], m['cause']) for m in d['migrations']], d['stats']['completeness'], open('$MT_TMP/fam.out').read()[-600:]"
# ... named as reduced, in the file and in the text
check compat_510_reduced_named json "$MT_TMP/fam.json" \
	"'reduced: no task storage before Linux 5.11' in d['meta']['backend']['why'] and 'without BPF atomics' in d['meta']['backend']['why']" \
	"d['meta']['backend']"
check compat_510_reduced_in_text grep -q '^Backend: bpf (.*reduced: no task storage' "$MT_TMP/fam.out"

# 2. A process forking children that exec, each a new tgid whose bit is set without the
#    atomic OR: every child traced, the kernel's count matched.
"$MT" run --cpus 0,1 -o "$MT_TMP/exec.json" -- "$MT_PROGS/balance" exec 1 >/dev/null 2>&1
check compat_510_children_traced json "$MT_TMP/exec.json" \
	"d['stats']['traced_tasks'] >= 10 and d['stats']['completeness']['difference'] == 0" \
	"d['stats']['traced_tasks'], d['stats']['completeness']"

# 3. --unit: refused by the BPF backend in one line that says what to use; auto takes ftrace.
rc=0
"$MT" run --backend bpf --unit "$MT_PROGS/selfmig:main" -- true >"$MT_TMP/unit.out" 2>&1 || rc=$?
check compat_510_unit_refused bash -c '[ "$1" != 0 ] && grep -q "Linux 5.11" "$2" &&
	grep -q -- "--backend ftrace" "$2"' _ "$rc" "$MT_TMP/unit.out"
"$MT" run --unit "$MT_PROGS/selfmig:main" -o "$MT_TMP/unit.json" -- "$MT_PROGS/selfmig" \
	running 3 1 >"$MT_TMP/unit_auto.out" 2>&1
check compat_510_unit_auto_ftrace json "$MT_TMP/unit.json" \
	"d['meta']['backend']['name'] == 'ftrace' and 'BPF unavailable' in d['meta']['backend']['why']" \
	"d['meta']['backend'], open('$MT_TMP/unit_auto.out').read()[-600:]"

# 4. doctor says which features the kernel lacks, and still loads run's programs.
"$MT" doctor >"$MT_TMP/doctor.out" 2>&1
check compat_510_doctor grep -qE '^limited +BPF features +no task storage' "$MT_TMP/doctor.out"
check compat_510_doctor_loads grep -qE '^ok +BPF load ' "$MT_TMP/doctor.out"
