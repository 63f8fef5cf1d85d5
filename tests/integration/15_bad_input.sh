#!/usr/bin/env bash
# Bad input to every option of every command: malformed, negative, zero, huge, empty,
# wrong-unit, repeated or conflicting values.  Each must be one line on stderr naming the
# option and the token, exit status 2, nothing run, no file written.
. "$(dirname "$0")/../lib.sh"

# bad NAME TOKEN ARGS...: `migtrace ARGS` must refuse, naming TOKEN.  The workload, where
# there is one, would create $MT_TMP/ran; -o/--json point into $MT_TMP/out.
bad() {
	local name=$1 token=$2 out rc lines
	shift 2
	rm -rf "$MT_TMP/ran" "$MT_TMP/out"
	mkdir -p "$MT_TMP/out"
	out=$("$MT" "$@" 2>&1 >/dev/null)
	rc=$?
	lines=$(grep -c . <<<"$out")
	if [ "$rc" = 2 ] && [ "$lines" = 1 ] && grep -qF -- "$token" <<<"$out" &&
		[ ! -e "$MT_TMP/ran" ] && [ -z "$(ls -A "$MT_TMP/out")" ]; then
		pass "bad_$name"
	else
		fail "bad_$name" "rc=$rc lines=$lines ran=$([ -e "$MT_TMP/ran" ] && echo yes || echo no) files=$(ls -A "$MT_TMP/out" | tr '\n' ' ') out=$(head -c 300 <<<"$out" | tr '\n' '|')"
	fi
}
W=(-- touch "$MT_TMP/ran")
O=(-o "$MT_TMP/out/r.json")

# run
bad run_cpus_token "'x'" run --cpus 0,x "${O[@]}" "${W[@]}"
bad run_cpus_offline "999" run --cpus 999 "${O[@]}" "${W[@]}"
bad run_cpus_empty "--cpus" run --cpus '' "${O[@]}" "${W[@]}"
bad run_cpus_negative "'-1'" run --cpus -1 "${O[@]}" "${W[@]}"
bad run_duration_unit "'5parsecs'" run -d 5parsecs "${O[@]}" "${W[@]}"
bad run_duration_zero "'0'" run -d 0 "${O[@]}" "${W[@]}"
bad run_duration_negative "'-3s'" run -d -3s "${O[@]}" "${W[@]}"
bad run_duration_huge "'99999999999h'" run -d 99999999999h "${O[@]}" "${W[@]}"
bad run_pid_token "'abc'" run -p abc "${O[@]}"
bad run_pid_zero "'0'" run -p 0 "${O[@]}"
bad run_pid_negative "'-5'" run -p -5 "${O[@]}"
bad run_pid_and_command "-p" run -p 1 "${O[@]}" "${W[@]}"
bad run_no_workload "WORKLOAD" run "${O[@]}"
bad run_hot_token "'5ms'" run --hot-ns 5ms "${O[@]}" "${W[@]}"
bad run_ringbuf_pow2 "'3000'" run --ringbuf 3000 "${O[@]}" "${W[@]}"
bad run_ringbuf_zero "'0'" run --ringbuf 0 "${O[@]}" "${W[@]}"
bad run_ringbuf_huge "'64G'" run --ringbuf 64G "${O[@]}" "${W[@]}"
bad run_maxrec_negative "'-1'" run --max-records -1 "${O[@]}" "${W[@]}"
bad run_unit_form "'nocolon'" run --unit nocolon "${O[@]}" "${W[@]}"
bad run_unit_empty_func "'/bin/true:'" run --unit /bin/true: "${O[@]}" "${W[@]}"
bad run_user_unknown "no_such_user_x" run -u no_such_user_x "${O[@]}" "${W[@]}"
bad run_output_dir "$MT_TMP/out" run -o "$MT_TMP/out" "${W[@]}"
bad run_output_missing_dir "$MT_TMP/nodir/r.json" run -o "$MT_TMP/nodir/r.json" "${W[@]}"
bad run_calibration_missing "$MT_TMP/none.json" run --calibration "$MT_TMP/none.json" "${O[@]}" "${W[@]}"
echo '{"schema": "migtrace.calibrate/1", "hot' >"$MT_TMP/trunc.json"
bad run_calibration_truncated "$MT_TMP/trunc.json" run --calibration "$MT_TMP/trunc.json" "${O[@]}" "${W[@]}"
# A calibration file is read strictly (docs/calibration-file.md): a member repeated or unknown,
# another kind of file, or a calibration without a hot time is refused; a good one, of either
# schema, gets the run on to the next bad option.
printf '{"schema":"migtrace.calibrate/1","method":2004,"hot_time_ns":5,"hot_time_ns":6}\n' >"$MT_TMP/dup.json"
bad run_calibration_repeated '"hot_time_ns" appears twice' run --calibration "$MT_TMP/dup.json" "${O[@]}" "${W[@]}"
printf '{"schema":"migtrace.calibrate/2","method":2004,"frob":1}\n' >"$MT_TMP/unknown.json"
bad run_calibration_unknown '"frob" is not a member' run --calibration "$MT_TMP/unknown.json" "${O[@]}" "${W[@]}"
bad run_calibration_run_file "not a calibration file" run --calibration "$MT_ROOT/tests/data/sample-run.json" "${O[@]}" "${W[@]}"
bad run_calibration_v1_read "no_such_user_x" run --calibration "$MT_ROOT/tests/data/calibrate-v1.json" -u no_such_user_x "${O[@]}" "${W[@]}"
"$MT" calibrate --cpus 0 --reps 3 -q -o "$MT_TMP/one.json" >/dev/null 2>&1
bad run_calibration_one_cpu "has no hot time" run --calibration "$MT_TMP/one.json" "${O[@]}" "${W[@]}"
if [ "$(nproc)" -ge 2 ]; then
	"$MT" calibrate --cpus 0,1 --reps 3 -q -o "$MT_TMP/two.json" >/dev/null 2>&1
	bad run_calibration_v2_read "no_such_user_x" run --calibration "$MT_TMP/two.json" -u no_such_user_x "${O[@]}" "${W[@]}"
fi
# a mistyped option: getopt's line, then argp's hint naming the command's --help
out=$("$MT" run --frobnicate "${W[@]}" 2>&1 >/dev/null); rc=$?
check run_unknown_option_hint bash -c '[ "$1" = 2 ] && [ "$(grep -c . <<<"$2")" = 2 ] &&
	grep -qF -- "--frobnicate" <<<"$2" && grep -qF "Try \`migtrace run --help'"'"'" <<<"$2"' \
	_ "$rc" "$out"

# calibrate
# scope: -a and --cgroup trace no workload and no -p; --cgroup takes a cgroup v2 directory;
# -c is the cgroup (as in runqlat), so its old meaning, a CPU list, names --cpus
bad run_all_and_pid "-a" run -a -p 1 "${O[@]}"
bad run_all_and_command "-a" run -a "${O[@]}" "${W[@]}"
bad run_all_and_cgroup "--cgroup" run -a -c /sys/fs/cgroup "${O[@]}"
bad run_all_and_cpus "--cpus" run -a --cpus 0 "${O[@]}"
bad run_cgroup_and_pid "--cgroup" run -c /sys/fs/cgroup -p 1 "${O[@]}"
bad run_cgroup_and_command "--cgroup" run --cgroup /sys/fs/cgroup "${O[@]}" "${W[@]}"
bad run_cgroup_missing "$MT_TMP/no-such-cgroup" run -c "$MT_TMP/no-such-cgroup" "${O[@]}"
bad run_cgroup_not_dir "not a directory" run -c /etc/passwd "${O[@]}"
bad run_cgroup_not_cgroup2 "not in a cgroup v2" run --cgroup "$MT_TMP" "${O[@]}"
mkdir -p "$MT_TMP/v1"
if mount -t cgroup -o none,name=migtrace-test cgroup "$MT_TMP/v1" 2>/dev/null; then
	bad run_cgroup_v1 "cgroup v1" run -c "$MT_TMP/v1" "${O[@]}"
	umount "$MT_TMP/v1"
else
	skip run_cgroup_v1 "no cgroup v1 hierarchy can be mounted here (not root, or v1 disabled)"
fi
bad run_old_cpus "--cpus" run -c 0,1 "${O[@]}" "${W[@]}"
bad cal_old_cpus "--cpus" calibrate -c 0,1 -o "$MT_TMP/out/c.json"
bad val_old_cpus "--cpus" validate -c 0,1 -o "$MT_TMP/out/v.json"
bad sweep_old_cpus "--cpus" sweep -c 0,1 --values 1ms -o "$MT_TMP/out/s.json" "${W[@]}"

J=(-o "$MT_TMP/out/c.json")
bad cal_reps_zero "'0'" calibrate --reps 0 "${J[@]}"
bad cal_reps_negative "'-4'" calibrate --reps -4 "${J[@]}"
bad cal_reps_huge "'99999999999'" calibrate --reps 99999999999 "${J[@]}"
bad cal_size_unit "'12Q'" calibrate --size 12Q "${J[@]}"
bad cal_size_empty "--size" calibrate --size '' "${J[@]}"
bad cal_size_zero "'0'" calibrate --size 0 "${J[@]}"
bad cal_size_huge "would not fit" calibrate --size 1T "${J[@]}"
bad cal_level_zero "'0'" calibrate --level 0 "${J[@]}"
bad cal_level_big "--level 9" calibrate --level 9 "${J[@]}"
bad cal_level_and_size "--level and --size" calibrate --level 2 --size 1M "${J[@]}"
bad cal_method "'2006'" calibrate --method 2006 "${J[@]}"
bad cal_factor_zero "'0'" calibrate --method 2005 --factor 0 "${J[@]}"
bad cal_format "'xml'" calibrate --format xml "${J[@]}"
bad cal_caches "'floppy'" calibrate --caches floppy "${J[@]}"
bad cal_cpus_token "'0-'" calibrate --cpus 0- "${J[@]}"
bad cal_json_dir "$MT_TMP/out" calibrate -o "$MT_TMP/out" --reps 3
bad cal_root_missing "$MT_TMP/nosys" calibrate --root "$MT_TMP/nosys" "${J[@]}"
bad cal_json_and_output "-j and -o" calibrate -j "${J[@]}"
bad cal_argument "'extra'" calibrate extra "${J[@]}"

# validate
V=(-o "$MT_TMP/out/v.json")
bad val_cpus_offline "9999" validate --cpus 0,9999 "${V[@]}"
bad val_cpus_one "two CPUs" validate --cpus 0 "${V[@]}"
bad val_samples_zero "'0'" validate --samples 0 "${V[@]}"
bad val_samples_token "'many'" validate --samples many "${V[@]}"
bad val_ws_unit "'3X'" validate --ws 3X "${V[@]}"
bad val_ws_zero "'0'" validate --ws 0 "${V[@]}"
bad val_polluter_negative "'-5'" validate --polluter -5 "${V[@]}"
bad val_ages_token "'ten'" validate --ages 10,ten "${V[@]}"
bad val_ages_empty "--ages" validate --ages '' "${V[@]}"
bad val_size_unit "'12Q'" validate --size 12Q "${V[@]}"
bad val_output_missing_dir "$MT_TMP/nodir/v.json" validate -o "$MT_TMP/nodir/v.json"

# a CPU listed twice in any --cpus (it was dropped without a word), in every command
bad run_cpus_twice "CPU 1 is listed twice in '0-1,1'" run --cpus 0-1,1 "${O[@]}" "${W[@]}"
bad val_cpus_twice "CPU 0 is listed twice in '0,1,0'" validate --cpus 0,1,0 "${V[@]}"
bad cal_cpus_twice "CPU 0 is listed twice" calibrate --cpus 0,0 "${J[@]}"
bad sweep_cpus_twice "CPU 0 is listed twice" sweep --values 1ms,5ms --cpus 0,1,0 \
	-o "$MT_TMP/out/s.json" "${W[@]}"

# an age beyond what the tunable can hold (each sample would wait it out: 1e9 µs is 1000 s)
bad val_ages_beyond_tunable "'1e9' µs is beyond 4294967 µs" validate --ages 50,1e9 "${V[@]}"
bad run_ages_beyond_tunable "'5000000' µs is beyond" run "${O[@]}" cachewalk --controlled \
	--ages 5000000

# cachewalk's working set beyond what memory can take: refused before the calibration, not an
# OOM kill (exit 137, no word) after it
mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
bad val_ws_beyond_memory "(MemAvailable)" validate --ws $((mem_kb * 2))K "${V[@]}"
bad run_ws_beyond_memory "(MemAvailable)" run "${O[@]}" cachewalk --controlled \
	--ws $((mem_kb * 2))K

# mem_cgroup BYTES: a new memory cgroup limited to BYTES (cgroup v2, else v1 under this
# shell's own), its directory printed; nothing printed where none can be made
mem_cgroup() {
	local d rel
	if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		d=/sys/fs/cgroup/migtrace-test.$$
		mkdir "$d" 2>/dev/null && echo "$1" >"$d/memory.max" && echo "$d" && return
	else
		rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
		d=/sys/fs/cgroup/memory${rel%/}/migtrace-test.$$
		[ -n "$rel" ] && mkdir "$d" 2>/dev/null &&
			echo "$1" >"$d/memory.limit_in_bytes" && echo "$d" && return
	fi
	rmdir "$d" 2>/dev/null
}
cg=$(mem_cgroup $((2 << 30)))
if [ -n "$cg" ]; then
	# migtrace started inside the 2 GiB cgroup, where 10G passes MemAvailable but not the limit
	printf '#!/bin/sh\necho $$ >"%s/cgroup.procs" && exec "%s" "$@"\n' "$cg" "$MT" \
		>"$MT_TMP/in-cgroup"
	chmod +x "$MT_TMP/in-cgroup"
	MT=$MT_TMP/in-cgroup bad val_ws_beyond_cgroup "under the cgroup's memory limit of 2.0 GiB" \
		validate --ws 10G "${V[@]}"
	MT=$MT_TMP/in-cgroup bad cal_size_beyond_cgroup "under the cgroup's memory limit" \
		calibrate --size 1G "${J[@]}"
	rmdir "$cg"
else
	skip ws_beyond_cgroup "no memory cgroup can be made here (not root, or no memory" \
		"controller)"
fi

# a long experiment says how long, on stderr, before the calibration (the line comes first):
# 30 rounds of one 4 s age at 4 rates and 2 arms, 32 s a round; under the default budget of
# 60 s, the five rounds a look needs at least
timeout -s INT 3 "$MT" validate --budget 0 --ages 4000000 -o "$MT_TMP/long.json" >/dev/null \
	2>"$MT_TMP/long.err"
check val_long_says_duration bash -c 'head -n 1 "$1" |
	grep -q "^migtrace validate: this will take about 960 s: 30 rounds of 1 ages x 4 rates x 2 arms"' \
	_ "$MT_TMP/long.err"
timeout -s INT 3 "$MT" validate --ages 4000000 -o "$MT_TMP/long.json" >/dev/null \
	2>"$MT_TMP/long.err"
check val_long_budget_says_duration bash -c 'head -n 1 "$1" |
	grep -q "^migtrace validate: this will take about 160 s: 5 rounds at most (--budget 60 s) of 1 ages x 4 rates x 2 arms"' \
	_ "$MT_TMP/long.err"

# an option's value given twice: the last would win without a word
bad run_output_repeated "--output given twice" run -o "$MT_TMP/out/a.json" "${O[@]}" "${W[@]}"
bad run_pid_repeated "--pid given twice ('1', then '2')" run -p 1 -p 2 "${O[@]}"
bad run_cpus_repeated "--cpus given twice ('0', then '1')" run --cpus 0 -C 1 "${O[@]}" "${W[@]}"
bad run_duration_repeated "--duration given twice" run -d 1s --duration 2s "${O[@]}" "${W[@]}"
bad run_csv_repeated "--csv given twice" run --csv "$MT_TMP/out/a" --csv "$MT_TMP/out/b" "${W[@]}"
bad cal_reps_repeated "--reps given twice ('3', then '4')" calibrate --reps 3 --reps 4 "${J[@]}"
bad val_samples_repeated "--samples given twice" validate --samples 5 --samples 6 "${V[@]}"
bad report_output_repeated "--output given twice" report "$MT_ROOT/tests/data/sample-run.json" \
	-o "$MT_TMP/out/a.json" -o "$MT_TMP/out/b.json"
bad report_text_repeated "--text given twice" report "$MT_ROOT/tests/data/sample-run.json" \
	--text "$MT_TMP/out/a.txt" --text "$MT_TMP/out/b.txt"

# an output that would replace the input or another output, by any spelling: refused, naming
# both, the input intact
S=$MT_ROOT/tests/data/sample-run.json
R=$MT_TMP/in/r.json
# clash NAME TOKEN ARGS...: as bad, and the run file $R (a copy of the sample) left as it was
clash() {
	rm -rf "$MT_TMP/in" && mkdir -p "$MT_TMP/in/d" && cp "$S" "$R"
	ln -s r.json "$MT_TMP/in/link.json" && ln "$R" "$MT_TMP/in/hard.json"
	# a run file named as --csv names its files; a calibration `run --calibration` reads
	cp "$S" "$MT_TMP/in/d/units.csv"
	echo '{"hot_time_ns": 500000}' >"$MT_TMP/in/cal.json"
	bad "$@"
	check "bad_$1_input_intact" bash -c 'cmp "$1" "$2" && cmp "$1" "$3/d/units.csv" &&
		grep -qx "{\"hot_time_ns\": 500000}" "$3/cal.json"' _ "$S" "$R" "$MT_TMP/in"
}
X=$MT_TMP/out/x.json
clash report_output_over_input "-o $R would replace the run file $R it reads" report -o "$R" "$R"
clash report_text_over_input "--text $R would replace the run file $R it reads" \
	report --text "$R" "$R"
clash report_metrics_over_input "--openmetrics $R would replace the run file $R" \
	report --openmetrics "$R" "$R"
clash report_over_input_by_link "-o $MT_TMP/in/link.json would replace the run file $R" \
	report -o "$MT_TMP/in/link.json" "$R"
clash report_over_input_hard_link "-o $MT_TMP/in/hard.json would replace the run file $R" \
	report -o "$MT_TMP/in/hard.json" "$R"
clash report_over_second_input "--text $MT_TMP/in/./hard.json would replace the run file $R" \
	report --text "$MT_TMP/in/./hard.json" "$S" "$R"
clash report_two_outputs "-o $X and --perfetto $MT_TMP/out/../out/x.json are the same file" \
	report -o "$X" --perfetto "$MT_TMP/out/../out/x.json" "$R"
clash report_two_stdouts "--text - and -o - both write to standard output" \
	report --text - -o - "$R"
bad report_json_and_output "-j and -o" report -j -o "$X" "$S"
clash report_input_in_csv_dir \
	"run file $MT_TMP/in/d/units.csv is $MT_TMP/in/d/units.csv, which --csv" \
	report --csv "$MT_TMP/in/d" "$MT_TMP/in/d/units.csv"
bad run_three_outputs_one_file "-o $X and --openmetrics $X are the same file" \
	run -o "$X" --openmetrics "$X" --perfetto "$X" "${W[@]}"
C=$MT_TMP/in/cal.json
clash run_output_over_calibration "-o $C would replace the --calibration file $C it reads" \
	run -o "$C" --calibration "$C" "${W[@]}"
mkdir -p "$MT_TMP/csv"
bad run_file_among_csv \
	"--openmetrics $MT_TMP/csv/./histograms.csv is $MT_TMP/csv/histograms.csv, which --csv" \
	run --csv "$MT_TMP/csv" --openmetrics "$MT_TMP/csv/./histograms.csv" "${W[@]}"
bad run_csv_plot_one_dir "--csv $MT_TMP/out/d and --plot $MT_TMP/out/d are the same directory" \
	run --csv "$MT_TMP/out/d" --plot "$MT_TMP/out/d" "${W[@]}"
bad val_two_outputs "-o $X and --perfetto $X are the same file" validate -o "$X" --perfetto "$X"
bad sweep_file_among_csv "-o $MT_TMP/csv/sweep.csv is $MT_TMP/csv/sweep.csv, which --csv" \
	sweep --values 1ms,5ms -o "$MT_TMP/csv/sweep.csv" --csv "$MT_TMP/csv" "${W[@]}"
# devices replace nothing, and a file compared with itself is only read
check report_devices_not_outputs "$MT" report --openmetrics /dev/null --perfetto /dev/null \
	-o /dev/null --text /dev/null "$S"
check report_compare_with_itself bash -c '"$1" report "$2" "$2" >/dev/null' _ "$MT" "$S"

# The spellings before migtrace(8)'s vocabulary work one release, after one line naming the
# new one.  deprecated NAME NOTE TOKEN ARGS...: the first line on stderr is NOTE, and TOKEN
# is in what follows (the old spelling read as the new one).
deprecated() {
	local name=$1 note=$2 token=$3 out
	shift 3
	out=$("$MT" "$@" 2>&1 >"$MT_TMP/dep.out")
	if [ "$(head -n 1 <<<"$out")" = "$note" ] && grep -qF -- "$token" <<<"$out"; then
		pass "deprecated_$name"
	else
		fail "deprecated_$name" "out=$(head -c 300 <<<"$out" | tr '\n' '|')"
	fi
}
deprecated cal_sysfs_root "migtrace calibrate: --sysfs-root is deprecated, use --root" \
	"--root: cannot read '$MT_TMP/nosys'" calibrate --sysfs-root "$MT_TMP/nosys"
deprecated doctor_sysfs_root "migtrace doctor: --sysfs-root is deprecated, use --root" \
	"$MT_TMP/nosys" doctor --sysfs-root="$MT_TMP/nosys"
deprecated cal_json "migtrace calibrate: --json is deprecated, use -o FILE (-j alone: the JSON on stdout)" \
	"-o: $MT_TMP/out is a directory" calibrate --json "$MT_TMP/out" --reps 3
deprecated report_json "migtrace report: --json is deprecated, use -o FILE (-j alone: the run file on stdout)" \
	"" report --json "$MT_TMP/dep.json" "$S"
check deprecated_report_json_wrote grep -q '"schema":"migtrace.run/' "$MT_TMP/dep.json"
deprecated report_o_text "migtrace report: -o now writes the run file (JSON), as in run; the text is --text $MT_TMP/dep.txt" \
	"" report -o "$MT_TMP/dep.txt" "$S"
check deprecated_report_o_wrote grep -q '"schema":"migtrace.run/' "$MT_TMP/dep.txt"
deprecated run_all "migtrace run: --all is deprecated, use --all-cpus" \
	"-a traces every task: not with -p" run --all -p 1
deprecated run_json_lines "migtrace run: --json-lines is deprecated, use --json" \
	"-j: writes a line per interval" run --json-lines -d 1 wakeup
deprecated val_a "migtrace validate: -a is deprecated, use --ages (-a is --all-cpus in run)" \
	"--ages: 'ten'" validate -a ten -o "$X"
deprecated val_P "migtrace validate: -P is deprecated, use --polluter (-P is --per-pid in run)" \
	"--polluter: '-5'" validate -P -5 -o "$X"

# runqlat's `run INTERVAL COUNT' is read as such: never "cannot run '1'"
bad run_interval_three "no third number" run 1 10 20
bad run_interval_not_seconds "INTERVAL '0.001'" run 0.001
bad run_interval_and_option "--interval is given already" run --interval 1s 2
bad run_interval_with_workload "-a traces every task: not with a WORKLOAD" run -a -- true
bad run_probe_rate "'0'" run --probe-moves 0 "${O[@]}" "${W[@]}"
bad run_probe_rate_word "'fast'" run --probe-moves fast "${O[@]}" "${W[@]}"
bad run_probe_share "'60'" run --probe-moves 20 --probe-share 60 "${O[@]}" "${W[@]}"
bad run_probe_share_alone "give --probe-moves RATE" run --probe-share 5 "${O[@]}" "${W[@]}"
bad run_probe_all "not -a" run -a --probe-moves 20 -d 1s "${O[@]}"
bad run_probe_ftrace_runs "only the BPF programs record" run --backend ftrace --probe-moves 20 "${O[@]}" "${W[@]}"
check run_interval_help_usage bash -c '"$1" run --help | grep -qF "migtrace run [OPTIONS] INTERVAL [COUNT]"' _ "$MT"
check help_cmd_is_cmd_help bash -c 'cmp <("$1" help report) <("$1" report --help)' _ "$MT"
check help_h_is_help bash -c 'for c in $("$1" --help | sed -n "s/^  \([a-z]*\) .*/\1/p"); do
	cmp <("$1" "$c" -h) <("$1" "$c" --help) || exit 1; done' _ "$MT"

# doctor and the command line itself
bad doctor_argument "'extra'" doctor extra
bad no_such_command "'frob'" frob
