#!/usr/bin/env bash
# migtrace report: saved runs rendered again (the checked-in sample against its golden text,
# live runs against what they printed), two runs compared, every kind of bad input refused
# in one line with exit 2 and nothing left behind, and the run-file reader fuzzed.
. "$(dirname "$0")/../lib.sh"

DATA=$MT_ROOT/tests/data

# 1. The checked-in sample runs (validate on this project's VM) against their golden text.
#    A change to the text renderer shows here first: regenerate the .txt files on purpose
#    (migtrace report FILE > FILE.txt) and say why in the commit.
check golden_sample_text bash -c '"$1" report "$2/sample-run.json" | cmp - "$2/sample-run.txt"' \
	_ "$MT" "$DATA"
check golden_sample_b_text bash -c '"$1" report "$2/sample-run-b.json" | cmp - "$2/sample-run-b.txt"' \
	_ "$MT" "$DATA"
check golden_compare bash -c \
	'cd "$2" && "$1" report sample-run.json sample-run-b.json | cmp - sample-compare.txt' \
	_ "$MT" "$DATA"
# the compare view marks what exceeds both runs' intervals: the 4 KiB run's cost at each age
check compare_marks bash -c '[ "$(grep -c "µs\] *\*$" "$1")" = 3 ]' _ "$DATA/sample-compare.txt"
# the samples above are migtrace.run/2 files: written back they become /3, which prints the
# same text and is written back again as the same bytes; so is the /3 sample of a grid
"$MT" report -o "$MT_TMP/v3.json" "$DATA/sample-run.json" >/dev/null 2>&1
check sample_v2_becomes_v3 bash -c 'grep -qx "\"schema\":\"migtrace.run/3\"," "$1" &&
	"$2" report "$1" | cmp - "$3/sample-run.txt"' _ "$MT_TMP/v3.json" "$MT" "$DATA"
check sample_json_round_trip bash -c '"$1" report -j "$2" 2>/dev/null | cmp - "$2"' \
	_ "$MT" "$MT_TMP/v3.json"
check golden_grid_text bash -c '"$1" report "$2/sample-grid.json" | cmp - "$2/sample-grid.txt"' \
	_ "$MT" "$DATA"
check grid_json_round_trip bash -c '"$1" report -o - "$2/sample-grid.json" 2>/dev/null |
	cmp - "$2/sample-grid.json"' _ "$MT" "$DATA"
# a grid against itself: its cells by rate and age, D* side by side, nothing marked
check compare_grid bash -c '"$1" report "$2/sample-grid.json" "$2/sample-grid.json" >"$3" &&
	grep -q "^  polluter 200 MB/s:$" "$3" && grep -q "^  D\* (95 %)" "$3" && ! grep -q "\*$" "$3"' \
	_ "$MT" "$DATA" "$MT_TMP/grid-compare.txt"
# --text writes the text whole, stdin reads as '-'
check report_text_file bash -c '"$1" report --text "$3/text" "$2/sample-run.json" && cmp "$3/text" "$2/sample-run.txt"' \
	_ "$MT" "$DATA" "$MT_TMP"
check report_from_stdin bash -c '"$1" report - <"$2/sample-run.json" | cmp - "$2/sample-run.txt"' \
	_ "$MT" "$DATA"
check report_sanitizers bash -c '[ ! -x "$1" ] || "$1" report "$2/sample-run.json" "$2/sample-run-b.json" >/dev/null' \
	_ "$MT_SAN" "$DATA"

# 2. Bad input: one line naming the file and the problem, exit 2, nothing on stdout, and no
#    output file left behind.
# bad_input NAME EXPECT ARGS...: report ARGS must fail so, its one line matching EXPECT.
bad_input() {
	local name=$1 expect=$2 out err rc
	shift 2
	rm -f "$MT_TMP/out.txt"
	out=$("$MT" report "$@" 2>"$MT_TMP/err")
	rc=$?
	err=$(cat "$MT_TMP/err")
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$(wc -l <"$MT_TMP/err")" = 1 ] &&
		grep -qE "$expect" <<<"$err" && [ ! -e "$MT_TMP/out.txt" ] &&
		! ls -A "$MT_TMP" | grep -q '^\.out\.txt\.'; then
		pass "$name"
	else
		fail "$name" "rc=$rc stdout=${out:0:80} stderr=$err"
	fi
}
head -c 20000 "$DATA/sample-run.json" >"$MT_TMP/truncated.json"
sed 's/"nr_online":2/"nr_online":2x/' "$DATA/sample-run.json" >"$MT_TMP/corrupt.json"
sed 's|migtrace.run/2|migtrace.run/1|' "$DATA/sample-run.json" >"$MT_TMP/old.json"
printf '{"schema":"migtrace.calibrate/1","cells":[]}\n' >"$MT_TMP/calib.json"
sed 's/"records_read":[0-9]*/"records_read":1/' "$DATA/sample-run.json" >"$MT_TMP/counts.json"
head -c 3000 /dev/urandom >"$MT_TMP/random.json"
# edited files: a member twice inside a section (the last would win: 22 and 28 shown as 28),
# a total that is not the sum of its parts, a negative duration
sed 's/"affinity":28/"affinity":22,"affinity":28/' "$DATA/sample-run.json" >"$MT_TMP/twice.json"
sed 's/"migrations":30,/"migrations":18446744073709551615,/' "$DATA/sample-run.json" >"$MT_TMP/total.json"
sed 's/"duration_s":0.102027983/"duration_s":-1/' "$DATA/sample-run.json" >"$MT_TMP/negative.json"
: >"$MT_TMP/empty.json"
bad_input report_missing_file "no-such.json: cannot open it: No such file" "$MT_TMP/no-such.json"
bad_input report_truncated "truncated.json: line [0-9]+, column [0-9]+: .*truncated" \
	--text "$MT_TMP/out.txt" "$MT_TMP/truncated.json"
bad_input report_corrupt "corrupt.json: line 3, column [0-9]+: .*expected ',' or '\}'" \
	--text "$MT_TMP/out.txt" "$MT_TMP/corrupt.json"
bad_input report_old_schema "old.json: .*schema migtrace.run/1: this migtrace reads migtrace.run/2 and migtrace.run/3 only" \
	"$MT_TMP/old.json"
bad_input report_other_schema "calib.json: .*schema migtrace.calibrate/1: not a run file" \
	"$MT_TMP/calib.json"
bad_input report_counts_disagree "counts.json: .*stats says 1 migration" "$MT_TMP/counts.json"
bad_input report_not_json "random.json: .*not a migtrace run file" "$MT_TMP/random.json"
bad_input report_member_twice 'twice.json: line 7, column [0-9]+: stats.by_cause: "affinity" appears twice' \
	"$MT_TMP/twice.json"
bad_input report_total_not_its_parts "total.json: line 7, column [0-9]+: stats.migrations: 18446744073709551615, not the sum of stats.by_cause \(30\)" \
	"$MT_TMP/total.json"
bad_input report_negative_duration "negative.json: line 6, column [0-9]+: meta.duration_s: -1 is negative" \
	"$MT_TMP/negative.json"
bad_input report_empty "empty.json: empty: not a run file" "$MT_TMP/empty.json"
bad_input report_directory "$MT_TMP: a directory, not a run file" "$MT_TMP"
# the second of two files bad: nothing of the first is printed either
bad_input report_compare_one_bad "truncated.json" "$DATA/sample-run.json" "$MT_TMP/truncated.json"
bad_input report_unwritable_dir "cannot write $MT_TMP/no/dir/out.txt: directory .* does not exist" \
	--text "$MT_TMP/no/dir/out.txt" "$DATA/sample-run.json"
bad_input report_text_is_dir "$MT_TMP is a directory" --text "$MT_TMP" "$DATA/sample-run.json"
bad_input report_output_unwritable "cannot write $MT_TMP/no/dir/out.json: directory" \
	-o "$MT_TMP/no/dir/out.json" "$DATA/sample-run.json"
bad_input report_no_file "give a run file"
bad_input report_three_files "unexpected argument" "$DATA/sample-run.json" \
	"$DATA/sample-run.json" "$DATA/sample-run.json"
out=$("$MT" report "$DATA/sample-run.json" 2>&1 >/dev/full)
rc=$?
check report_stdout_full bash -c '[ "$1" = 2 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -q "writing stdout failed: No space left" <<<"$2"' \
	_ "$rc" "$out"

# 3. The reader under libFuzzer (every input checked in under tests/fuzz/corpus/fuzz_run_file
#    replayed first, crashes found earlier among them): 80_fuzz.sh runs it, 20 s.

# 3b. Memory: the text of a 200 000-record run file (54 MB; bench/bench.py's generator) is
#     read through a window with the records counted, not kept, so it fits in 30 MiB of
#     address space; what keeps every record (--csv) runs out there, and out of memory is
#     exit 1 (the file is not at fault), one line saying what to do, nothing written.
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench; bench.write_big_run(sys.argv[2], sys.argv[3], 200000)' \
	"$MT_ROOT/bench" "$DATA/sample-run.json" "$MT_TMP/big.json"
"$MT" report "$MT_TMP/big.json" >"$MT_TMP/big.txt"
check report_big_text_bounded bash -c '(ulimit -v 30000; "$1" report "$2") | cmp - "$3" &&
	grep -q "^migrations: 200010 " "$3"' _ "$MT" "$MT_TMP/big.json" "$MT_TMP/big.txt"
# out_of_memory NAME EXPECT ARGS...: report ARGS under the limit fails so: exit 1, one line
out_of_memory() {
	local name=$1 expect=$2 out rc
	shift 2
	out=$(ulimit -v 30000; "$MT" report "$@" 2>"$MT_TMP/err")
	rc=$?
	check "$name" bash -c '[ "$1" = 1 ] && [ -z "$2" ] && [ "$(wc -l <"$3")" = 1 ] &&
		grep -qE "$4" "$3" && [ ! -e "$5" ]' _ "$rc" "$out" "$MT_TMP/err" "$expect" "$MT_TMP/oom-csv"
}
# gzipped (run.json.gz): inflated by a thread into the same window, so the same text in
# about the same memory (the thread's stack and zlib's state besides: 40 MiB)
gzip -1 -c "$MT_TMP/big.json" >"$MT_TMP/big.json.gz"
check report_big_gz_text_bounded bash -c '(ulimit -v 40000; "$1" report "$2") | cmp - "$3"' \
	_ "$MT" "$MT_TMP/big.json.gz" "$MT_TMP/big.txt"
rm -f "$MT_TMP/big.json.gz"
out_of_memory report_oom_records 'big.json: line [0-9]+, column [0-9]+: out of memory keeping the records \([0-9]+ read\): free memory or raise the limit \(ulimit -v\), or leave out -o, --csv and --perfetto' \
	--csv "$MT_TMP/oom-csv" "$MT_TMP/big.json"
sed 's/"nr_cpus":2,/"nr_cpus":4096,/' "$DATA/sample-run.json" >"$MT_TMP/cpus.json"
out_of_memory report_oom_pairs 'cpus.json: .*meta.nr_cpus: out of memory for its 4096 x 4096 CPU-pair matrix: free memory' \
	"$MT_TMP/cpus.json"
rm -f "$MT_TMP/big.json"

# 3b. The rules besides the age (docs/design.md, "When the threshold does not govern"): the
#     sample runs' environment doctored.  Where no rule applies, not a byte of the text moves;
#     under a sched_ext scheduler the analysis, run again on the file, says not applicable,
#     judges nothing and keeps the numbers it measured.
REANALYZE=$MT_ROOT/.output/tests/reanalyze
# with_rules IN OUT RULES: IN with environment.sched_rules = RULES (a JSON object)
with_rules() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["sched_rules"] = json.loads(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$@"
}
quiet='{"sched_ext_state":"disabled","sched_ext_ops":null,"sched_ext_switch_all":0,
	"numa_balancing":1,"numa_nodes":1,"core_sched":"not built","core_cookie_tasks":null,
	"traced_tasks":1,"traced_sched_ext_tasks":0,"traced_cookie_tasks":0,"preferred_llc":"absent"}'
scx=${quiet/\"disabled\",\"sched_ext_ops\":null,\"sched_ext_switch_all\":0/\"enabled\",\"sched_ext_ops\":\"scx_rusty\",\"sched_ext_switch_all\":1}
for s in grid run; do
	with_rules "$DATA/sample-$s.json" "$MT_TMP/quiet-$s.json" "$quiet"
	with_rules "$DATA/sample-$s.json" "$MT_TMP/scx-$s.json" "$scx"
	check "rules_none_apply_same_text_$s" bash -c '"$1" report "$2" | cmp - "$3"' \
		_ "$MT" "$MT_TMP/quiet-$s.json" "$DATA/sample-$s.txt"
	"$REANALYZE" "$MT_TMP/quiet-$s.json" "$MT_TMP/quiet-$s.re.json" >/dev/null 2>&1
	"$REANALYZE" "$MT_TMP/scx-$s.json" "$MT_TMP/scx-$s.re.json" >"$MT_TMP/scx-$s.txt" 2>&1
	check "rules_sched_ext_not_applicable_$s" bash -c 'grep -q "^  sched_ext: *scx_rusty is loaded (state enabled" "$1" &&
		grep -q "^  => not applicable: task_hot() is not consulted under a sched_ext scheduler" "$1" &&
		! sed -n "/^verdict$/,\$p" "$1" | grep -qE "too low|too high|about right| fits "' \
		_ "$MT_TMP/scx-$s.txt"
	check "rules_sched_ext_stored_$s" json "$MT_TMP/scx-$s.re.json" \
		"d['verdict']['verdict'] == 'not applicable' and all(x['verdict'] == 'not applicable' for x in d['verdict']['rates'])" \
		"d['verdict']"
	# the numbers as measured: those of the same file without the scheduler
	check "rules_sched_ext_numbers_kept_$s" python3 -c 'import json, sys
a, b = (json.load(open(f))["verdict"] for f in sys.argv[1:])
keep = lambda v: {k: x for k, x in v.items() if "verdict" not in k and k != "rates"}
sys.exit(keep(a) != keep(b) or [keep(x) for x in a["rates"]] != [keep(x) for x in b["rates"]])' \
		"$MT_TMP/quiet-$s.re.json" "$MT_TMP/scx-$s.re.json"
	check "rules_sched_ext_report_$s" bash -c '"$1" report "$2" | grep -q "^  => not applicable: "' \
		_ "$MT" "$MT_TMP/scx-$s.re.json"
done

# 4. Live runs: report prints what run and validate printed, byte for byte (the workloads'
#    own lines, "wakeup: …", "cachewalk: …", are theirs, not migtrace's).
need_bpf_pair report_live || exit 0
same_as_run() {
	local name=$1 cmd=$2
	shift 2
	"$MT" "$cmd" -o "$MT_TMP/$name.json" "$@" >"$MT_TMP/$name.out" 2>"$MT_TMP/$name.err"
	grep -vE '^(wakeup|cachewalk): ' "$MT_TMP/$name.out" >"$MT_TMP/$name.mine"
	if "$MT" report "$MT_TMP/$name.json" >"$MT_TMP/$name.rep" 2>&1 &&
		cmp -s "$MT_TMP/$name.mine" "$MT_TMP/$name.rep"; then
		pass "report_same_as_$name"
	else
		fail "report_same_as_$name" "$(diff "$MT_TMP/$name.mine" "$MT_TMP/$name.rep" | head -n 4 | tr '\n' ' ')"
	fi
}
same_as_run run_true run -- true
same_as_run run_wakeup run wakeup -t 2 -d 1
same_as_run run_natural run cachewalk --threads 2 --load 1 --duration 1
same_as_run validate validate --samples 3 --ages 50,1000
check report_validate_verdict bash -c 'grep -qE "^  => (the kernel.s .* (fits|is too (low|high) by)|undetermined)" "$1" ||
	{ grep -E "^(  =>|verdict)" "$1" | head -n 3; exit 1; }' _ "$MT_TMP/validate.rep"

# 5. -o -: the run file on stdout, alone (the workload's output goes to stderr with the text)
"$MT" run -o - -- sh -c 'echo from-the-workload' >"$MT_TMP/dash.json" 2>"$MT_TMP/dash.err"
check output_dash_is_json json "$MT_TMP/dash.json" "d['schema'] == 'migtrace.run/3' and d['meta']['exit_status'] == 0"
# the rules besides the age, as this host has them: one traced task, the NUMA knob as it reads
nb=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo None)
check output_sched_rules json "$MT_TMP/dash.json" \
	"d['environment']['sched_rules']['traced_tasks'] == 1 and d['environment']['sched_rules']['numa_balancing'] == $nb" \
	"d['environment']['sched_rules']"
check output_dash_text_on_stderr bash -c 'grep -q "^Tracing migrations of sh -c" "$1" && grep -q "^from-the-workload$" "$1"' \
	_ "$MT_TMP/dash.err"
check output_dash_report_same bash -c '"$1" report "$2" | cmp - <(grep -v "^from-the-workload$" "$3")' \
	_ "$MT" "$MT_TMP/dash.json" "$MT_TMP/dash.err"

# 6. Gzipped run files: -o NAME.gz writes one, and report reads it as it reads the JSON;
#    a gzip stream cut short or damaged is one line saying so, exit 2.
"$MT" report -o "$MT_TMP/g.json.gz" "$DATA/sample-run.json" >/dev/null
check gz_written bash -c 'head -c 3 "$1" | od -An -tx1 | grep -q "1f 8b 08" &&
	[ "$(stat -c %s "$1")" -lt "$(( $(stat -c %s "$2") / 4 ))" ]' _ "$MT_TMP/g.json.gz" "$DATA/sample-run.json"
check gz_read_same_text bash -c 'cmp <("$1" report "$2") <("$1" report "$3")' \
	_ "$MT" "$MT_TMP/g.json.gz" "$DATA/sample-run.json"
check gz_is_the_run_file bash -c 'zcat "$2" | cmp - <("$1" report -o - "$3" 2>/dev/null) &&
	"$1" report -o - "$2" 2>/dev/null | cmp - <("$1" report -o - "$3" 2>/dev/null)' \
	_ "$MT" "$MT_TMP/g.json.gz" "$DATA/sample-run.json"
head -c 2000 "$MT_TMP/g.json.gz" >"$MT_TMP/cut.json.gz"
bad_input gz_cut_short 'cut.json.gz: its gzip stream is cut short$' "$MT_TMP/cut.json.gz"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) // 2] ^= 0xff
open(sys.argv[2], "wb").write(b)' "$MT_TMP/g.json.gz" "$MT_TMP/bad.json.gz"
bad_input gz_damaged 'bad.json.gz: (its gzip stream is damaged|line [0-9]+, column [0-9]+: .*)$' "$MT_TMP/bad.json.gz"
