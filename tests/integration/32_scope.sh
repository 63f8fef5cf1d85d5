#!/usr/bin/env bash
# migtrace run -a and --cgroup: tasks migtrace did not launch, every task or a cgroup v2
# subtree's; a task outside the cgroup, busy migrating, is not counted; tasks that start or
# move into the cgroup after the start are.  The cgroup made here is removed on every exit.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair scope_tests || exit 0

# hop.sh [FLAG OUT]: moves itself between CPUs 0 and 1 forever (taskset: affinity moves);
# when FLAG appears, forks one hopping child (itself again), its pid in OUT.
cat >"$MT_TMP/hop.sh" <<'SH'
#!/bin/bash
while :; do
	taskset -p -c 0 $$ >/dev/null
	taskset -p -c 1 $$ >/dev/null
	if [ -n "$1" ] && [ -e "$1" ] && [ ! -e "$2" ]; then
		"$0" & echo $! >"$2.tmp" && mv "$2.tmp" "$2"
	fi
done
SH
chmod +x "$MT_TMP/hop.sh"

# the cgroup v2 mount: /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host
CGROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=${CGROOT:+$CGROOT/migtrace-scope.$$}
HOPPERS=()
cleanup() {
	local p i
	exec 2>/dev/null	# not the shell's notices of the hoppers it killed
	for p in "${HOPPERS[@]}"; do kill -KILL -- "-$p"; done
	wait
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		for i in $(seq 50); do
			while read -r p; do echo "$p" >"$CGROOT/cgroup.procs"; done \
				<"$CG/cgroup.procs" 2>/dev/null
			rmdir "$CG" 2>/dev/null && break
			sleep 0.1
		done
	fi
	rm -rf "$MT_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_hopper [ARGS]: a hopper in a process group of its own; its pid in $HOPPER.
start_hopper() {
	setsid "$MT_TMP/hop.sh" "$@" </dev/null >/dev/null 2>&1 &
	HOPPER=$!
	HOPPERS+=("$HOPPER")
}

# migs FILE PID: the migration records of thread PID in run file FILE.
migs() {
	python3 -c "import json, sys
print(sum(1 for m in json.load(open(sys.argv[1]))['migrations'] if m['pid'] == int(sys.argv[2])))" "$1" "$2"
}

# 1. -a: a hopper started before migtrace, which never launched it, is counted.
start_hopper
outside=$HOPPER
sleep 0.3
"$MT" run -a --duration 2 >"$MT_TMP/all.out" 2>"$MT_TMP/all.err"
rc=$?
check all_exit0 test "$rc" = 0
check all_header grep -q "^Tracing migrations of all tasks on CPUs" "$MT_TMP/all.out"
check all_ended_by_duration grep -q "^all tasks: ended by --duration after" "$MT_TMP/all.out"
aff=$(sed -n 's/^  affinity change *\([0-9]*\) .*/\1/p' "$MT_TMP/all.out")
check all_counts_affinity test "${aff:-0}" -ge 20
for section in "^age at migration, all causes" "^the kernel's judgement at" \
	"^run slices of traced tasks" "^wakeup-to-run latency" "^migrations by CPU pair" \
	"^completeness: " "^data quality: no migration records were sent"; do
	check "all_section_$(tr -c 'a-z' _ <<<"${section:1:14}")" grep -q "$section" "$MT_TMP/all.out"
done
# with -o the records are sent, and the hopper's are among them
"$MT" run -a --duration 2 -o "$MT_TMP/all.json" >"$MT_TMP/all-o.out" 2>&1
check all_o_exit0 test $? = 0
n=$(migs "$MT_TMP/all.json" "$outside" 2>/dev/null)
check all_o_records_of_hopper test "${n:-0}" -ge 20
check all_o_data_quality grep -q "^data quality: [0-9]* migration records" "$MT_TMP/all-o.out"
# the run file reads back (meta.pid 0: no one process)
check all_o_report "$MT" report "$MT_TMP/all.json"
# Ctrl-C ends it, with the summary and status 0
"$MT" run -a >"$MT_TMP/int.out" 2>&1 &
mt=$!
for i in $(seq 100); do grep -q "^Tracing migrations" "$MT_TMP/int.out" && break; sleep 0.1; done
sleep 0.5
kill -INT "$mt"
wait "$mt"
check all_sigint_exit0 test $? = 0
check all_sigint_summary grep -q "^all tasks: tracing ended by Interrupt" "$MT_TMP/int.out"

# 2. --cgroup: a hopper inside counts, the one outside does not; a process moved in after
#    the start counts, and so does a child forked inside after the start.
if [ -z "$CG" ] || ! mkdir "$CG" 2>/dev/null; then
	bpf_skip cgroup_tests "cannot make a cgroup v2 directory (${CGROOT:-no cgroup2 mount}: read-only?)"
	exit 0
fi
start_hopper "$MT_TMP/spawn" "$MT_TMP/child.pid"
inside=$HOPPER
echo "$inside" >"$CG/cgroup.procs"
"$MT" run --cgroup "$CG" --duration 3 -o "$MT_TMP/cg.json" >"$MT_TMP/cg.out" 2>&1 &
mt=$!
for i in $(seq 100); do grep -q "^Tracing migrations" "$MT_TMP/cg.out" && break; sleep 0.1; done
# moved in after the start: forked outside, joins the cgroup, then hops
setsid sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2"' _ "$CG" "$MT_TMP/hop.sh" \
	</dev/null >/dev/null 2>&1 &
moved=$!
HOPPERS+=("$moved")
touch "$MT_TMP/spawn"	# the inside hopper forks its child now
wait "$mt"
rc=$?
child=$(cat "$MT_TMP/child.pid" 2>/dev/null)
check cgroup_exit0 test "$rc" = 0
check cgroup_header grep -q "^Tracing migrations of cgroup $CG (id [0-9]*) on CPUs" "$MT_TMP/cg.out"
n_in=$(migs "$MT_TMP/cg.json" "$inside" 2>/dev/null)
n_out=$(migs "$MT_TMP/cg.json" "$outside" 2>/dev/null)
n_moved=$(migs "$MT_TMP/cg.json" "$moved" 2>/dev/null)
n_child=$(migs "$MT_TMP/cg.json" "${child:-0}" 2>/dev/null)
check cgroup_inside_counted test "${n_in:-0}" -ge 20
check cgroup_outside_not_counted test "${n_out:-1}" = 0
check cgroup_moved_in_counted test "${n_moved:-0}" -ge 5
check cgroup_forked_inside_counted test -n "$child" -a "${n_child:-0}" -ge 5
# every record is of a task of the cgroup: the hoppers inside, their taskset children
check cgroup_only_its_tasks json "$MT_TMP/cg.json" \
	"all(m['comm'] in ('hop.sh', 'taskset', 'sh', 'bash') and m['tgid'] != $outside for m in d['migrations'])" \
	"sorted({(m['pid'], m['comm']) for m in d['migrations']})[:20]"
echo "  scope: -a counted $aff affinity moves; --cgroup: inside $n_in, outside $n_out, moved in $n_moved, forked inside $n_child records"

# 3. The cgroup removed and created again at its path (a service's restart): a new cgroup,
#    a new id.  The run follows it and says so; a hopper moved into the new one is counted
#    (before, the run flatlined at 0 with no word).
for p in "${HOPPERS[@]}"; do kill -KILL -- "-$p" 2>/dev/null; done
wait 2>/dev/null
HOPPERS=()
for i in $(seq 50); do
	while read -r p; do echo "$p" >"$CGROOT/cgroup.procs"; done <"$CG/cgroup.procs" 2>/dev/null
	rmdir "$CG" 2>/dev/null && break
	sleep 0.1
done
mkdir "$CG"
"$MT" run --cgroup "$CG" --duration 5 -o "$MT_TMP/cg2.json" >"$MT_TMP/cg2.out" 2>"$MT_TMP/cg2.err" &
mt=$!
wait_for "$MT_TMP/cg2.out" '^Tracing migrations' 10
rmdir "$CG"
wait_for "$MT_TMP/cg2.err" 'was removed' 5
mkdir "$CG"
wait_for "$MT_TMP/cg2.err" 'was created again' 5
setsid sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2"' _ "$CG" "$MT_TMP/hop.sh" \
	</dev/null >/dev/null 2>&1 &
again=$!
HOPPERS+=("$again")
wait "$mt"
check cgroup_recreated_said bash -c 'grep -q "the cgroup $1 was removed" "$2" &&
	grep -q "the cgroup $1 was created again (id [0-9]*, was [0-9]*): tracing the new one" "$2"' \
	_ "$CG" "$MT_TMP/cg2.err"
n_again=$(migs "$MT_TMP/cg2.json" "$again" 2>/dev/null)
check cgroup_recreated_followed test "${n_again:-0}" -ge 5
