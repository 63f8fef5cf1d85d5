#!/usr/bin/env bash
# migtrace doctor: one line per check, the locked-down tunable named as such, and the rules
# besides the age as this host has them.
. "$(dirname "$0")/../lib.sh"

out=$("$MT" doctor 2>&1)
rc=$?
if reason=$(bpf_ok); then
	check doctor_exit_0 test "$rc" = 0
	# every program run uses is loaded, by name, not a stand-in probe, in both builds (the
	# off-CPU records of self-timed units are code the verifier sees only when they are on)
	check doctor_bpf_loads grep -qE '^ok +BPF load +the 12 programs run uses pass this kernel.s verifier, in both builds \(--unit.s, and with off-CPU, switch and probed-run records\) \([0-9]+ ms\): mt_switch, mt_migrate, mt_features, mt_wakeup, mt_waking, mt_fork, mt_exec, mt_wakeup_new, mt_unit_enter, mt_unit_exit, mt_cgroup_attach, mt_free$' <<<"$out"
	check doctor_tp_btf_fires grep -qE '^ok +tp_btf attach +this process was switched in [1-9][0-9]* times and migrated [1-9][0-9]* times' <<<"$out"
	check doctor_uprobes grep -qE '^ok +uprobes +a unit timed on a function of this binary' <<<"$out"
else
	bpf_skip doctor_bpf "$reason"
fi
check doctor_tunable_line grep -qE '^(ok|limited) +migration-cost tunable' <<<"$out"
if grep -q "EPERM" <<<"$out"; then
	check doctor_tunable_locked grep -qE 'migration-cost tunable +not readable: .*(locked down|lockdown)' <<<"$out"
fi
check doctor_every_line_has_status bash -c '! grep -vE "^(ok|limited|missing) |^  L[0-9]|^[0-9]+ online CPU|^migtrace run can" <<<"$1"' _ "$out"
check doctor_topology grep -qE '^[0-9]+ online CPUs? ' <<<"$out"
# both backends: ftrace's own line, and the last line says which would record
check doctor_ftrace_line grep -qE '^(ok +ftrace backend +tracefs at .*: a tracefs instance saw this process migrate|limited +ftrace backend|missing +ftrace backend +cannot record here: )' <<<"$out"
check doctor_names_backends grep -qE '^migtrace run can(not)? work here( \(backends: bpf (and ftrace|only); auto takes bpf\)| with the ftrace backend only|:)' <<<"$out"
# the rules besides the age, one line each (docs/design.md, "When the threshold does not govern")
check doctor_rules_lines bash -c 'for w in "sched_ext" "NUMA balancing" "core scheduling" "cache-aware balancing"; do
	grep -qE "^(ok|limited) +$w  " <<<"$1" || exit 1; done' _ "$out"
if [ ! -e /sys/kernel/sched_ext/state ]; then
	check doctor_sched_ext grep -qE '^ok +sched_ext +not in this kernel \(no /sys/kernel/sched_ext\)' <<<"$out"
elif [ "$(cat /sys/kernel/sched_ext/state)" = disabled ]; then
	check doctor_sched_ext grep -qE '^ok +sched_ext +no BPF scheduler loaded' <<<"$out"
else
	check doctor_sched_ext grep -qE "^(ok|limited) +sched_ext +.* \(state $(cat /sys/kernel/sched_ext/state)" <<<"$out"
fi
nb=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
case $nb in
'') check doctor_numa grep -qE '^ok +NUMA balancing +no kernel.numa_balancing' <<<"$out" ;;
0) check doctor_numa grep -qE "^ok +NUMA balancing +off \(kernel.numa_balancing = 0\); $nodes NUMA nodes?$" <<<"$out" ;;
*) check doctor_numa grep -qE "^(ok|limited) +NUMA balancing +on \(kernel.numa_balancing = $nb\), $nodes NUMA node" <<<"$out" ;;
esac
check doctor_llc grep -qE '^(ok +cache-aware balancing +cache-aware scheduling: not in this kernel|limited +cache-aware balancing +task_struct.preferred_llc is in this kernel.s BTF \(llc_balancing: [^)]*\):) .*\([0-9]+ ms\)$' <<<"$out"
