#!/usr/bin/env bash
# migtrace doctor: one line per check, and the locked-down tunable named as such.
. "$(dirname "$0")/../lib.sh"

out=$("$MT" doctor 2>&1)
rc=$?
if reason=$(bpf_ok); then
	check doctor_exit_0 test "$rc" = 0
	check doctor_bpf_loads grep -qE '^ok +BPF load' <<<"$out"
	check doctor_tp_btf_fires grep -qE '^ok +tp_btf attach +sched_switch fired [0-9]+ times' <<<"$out"
	check doctor_uprobes grep -qE '^(ok|missing) +uprobes' <<<"$out"
else
	bpf_skip doctor_bpf "$reason"
fi
check doctor_tunable_line grep -qE '^(ok|limited) +migration-cost tunable' <<<"$out"
if grep -q "EPERM" <<<"$out"; then
	check doctor_tunable_locked grep -qE 'migration-cost tunable +not readable: .*(locked down|lockdown)' <<<"$out"
fi
check doctor_every_line_has_status bash -c '! grep -vE "^(ok|limited|missing) |^  L[0-9]|^[0-9]+ online CPU|^migtrace run can" <<<"$1"' _ "$out"
check doctor_topology grep -qE '^[0-9]+ online CPUs? ' <<<"$out"
