#!/usr/bin/env bash
# migtrace doctor: one line per check, and the locked-down tunable named as such.
. "$(dirname "$0")/../lib.sh"

out=$("$MT" doctor 2>&1)
rc=$?
if reason=$(bpf_ok); then
	check doctor_exit_0 test "$rc" = 0
	# every program run uses is loaded, by name, not a stand-in probe, in both builds (the
	# off-CPU records of self-timed units are code the verifier sees only when they are on)
	check doctor_bpf_loads grep -qE '^ok +BPF load +the 10 programs run uses pass this kernel.s verifier, in both builds \(--unit.s, and with off-CPU records\) \([0-9]+ ms\): mt_switch, mt_migrate, mt_features, mt_wakeup, mt_fork, mt_exec, mt_wakeup_new, mt_unit_enter, mt_unit_exit, mt_free$' <<<"$out"
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
