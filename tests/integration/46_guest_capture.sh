#!/usr/bin/env bash
# migtrace report on a capture `trace-cmd record` itself made (46_tracedat.sh's is trace-cmd
# extract's of a private instance, as trace-cmd record is refused on this project's host):
# tests/data/trace-cmd-6.12.dat, recorded in the kernel matrix's 6.12 guest (the command is
# in tests/data/README).  Its 254 sched_migrate_task events (all orig_cpu != dest_cpu, 250
# of them the wakeup workload's) are the migrations migtrace counts less fork placements;
# trace-cmd report, where installed, counts them again.
. "$(dirname "$0")/../lib.sh"

CAP=$MT_ROOT/tests/data/trace-cmd-6.12.dat
EVENTS=254

"$MT_SAN" report -o "$MT_TMP/g.json" "$CAP" >"$MT_TMP/g.txt" 2>"$MT_TMP/g.err"
check guestcap_report_runs [ $? = 0 -a -s "$MT_TMP/g.txt" -a ! -s "$MT_TMP/g.err" ]
check guestcap_header grep -q "^Migrations in the trace-cmd capture .*trace-cmd-6.12.dat (2 CPUs)" \
	"$MT_TMP/g.txt"
check guestcap_backend_line grep -q "^Backend: trace-cmd" "$MT_TMP/g.txt"
# every event a migration; fork placements (no event) and unseen moves on top
check guestcap_events json "$MT_TMP/g.json" \
	"d['stats']['migrations'] - d['stats']['by_cause']['fork'] - d['stats']['by_cause']['unseen'] == $EVENTS and d['meta']['backend']['name'] == 'trace-cmd' and d['meta']['backend']['out_of_order'] == 0" \
	"(d['stats']['migrations'], d['stats']['by_cause'], d['meta']['backend'])"
if command -v trace-cmd >/dev/null; then
	# -F before -i: trace-cmd 3.1 filters the inputs named after it
	check guestcap_trace_cmd_agrees [ "$(trace-cmd report -F sched_migrate_task -i "$CAP" 2>/dev/null |
		grep -cE ' sched_migrate_task: .*orig_cpu=([0-9]+) dest_cpu=([0-9]+)')" = "$EVENTS" ]
else
	skip guestcap_trace_cmd_agrees "no trace-cmd (apt-get install trace-cmd)"
fi
