#!/usr/bin/env bash
# run --interval, -j, --textfile: blocks while tracing, JSON lines that add up to the run, a
# Prometheus textfile that promtool accepts and whose counters match the run, written
# atomically (SIGTERM leaves a whole file, kill -9 no partial *.prom), SIGHUP's rewrite; the
# bad input refused in one line with exit 2; the systemd unit checked by systemd-analyze.
. "$(dirname "$0")/../lib.sh"

# one_line_2 NAME ARGS...: `migtrace run ARGS` exits 2 with one line on stderr, no stdout.
one_line_2() {
	local name=$1 out err rc
	shift
	out=$("$MT" run "$@" 2>"$MT_TMP/err")
	rc=$?
	err=$(cat "$MT_TMP/err")
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$(wc -l <"$MT_TMP/err")" = 1 ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, stdout '$out', stderr '$err'"
	fi
}

# 1. Bad input: nothing starts (no root needed: refused before the privileges are checked).
one_line_2 interval_zero --interval 0 wakeup -d 1
one_line_2 interval_negative --interval -1s wakeup -d 1
one_line_2 interval_too_short --interval 1ms wakeup -d 1
one_line_2 count_zero --interval 1s --count 0 wakeup -d 1
one_line_2 count_without_interval --count 3 wakeup -d 1
one_line_2 timestamp_without_interval -T wakeup -d 1
one_line_2 json_without_interval -j wakeup -d 1
one_line_2 json_with_run_file_on_stdout --interval 1s -j -o - wakeup -d 1
one_line_2 textfile_missing_dir --textfile "$MT_TMP/no/such/dir" wakeup -d 1
one_line_2 listen_bad_port --listen 70000 wakeup -d 1
one_line_2 listen_name_not_address --listen localhost:9464 wakeup -d 1
# a port taken: refused before the workload runs (its output file would say it ran)
python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$MT_TMP/taken.port" &
taker=$!
wait_until 10 test -s "$MT_TMP/taken.port"
one_line_2 listen_port_taken --listen "127.0.0.1:$(cat "$MT_TMP/taken.port")" -- sh -c 'touch "$0"' "$MT_TMP/ran"
check listen_port_taken_nothing_ran test ! -e "$MT_TMP/ran"
kill "$taker" 2>/dev/null; wait "$taker" 2>/dev/null
: >"$MT_TMP/plain"
one_line_2 textfile_not_a_dir --textfile "$MT_TMP/plain" wakeup -d 1
# the run file or another export over the textfile: one would replace the other (issue 36)
mkdir -p "$MT_TMP/tf"
one_line_2 textfile_is_the_run_file --textfile "$MT_TMP/tf" -o "$MT_TMP/tf/migtrace.prom" wakeup -d 1
one_line_2 textfile_is_openmetrics --textfile "$MT_TMP/tf" --openmetrics "$MT_TMP/tf/migtrace.prom" wakeup -d 1
# a directory the user cannot write into (root writes anywhere: checked as nobody)
mkdir -p "$MT_TMP/ro" && chmod 555 "$MT_TMP/ro" && chmod 755 "$MT_TMP"
if [ "$(id -u)" = 0 ]; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$MT" run --textfile "$MT_TMP/ro" \
		wakeup -d 1 2>&1)
else
	out=$("$MT" run --textfile "$MT_TMP/ro" wakeup -d 1 2>&1)
fi
rc=$?
if [ "$rc" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && grep -q "cannot make a file" <<<"$out"; then
	pass textfile_unwritable_dir
else
	fail textfile_unwritable_dir "exit $rc: $out"
fi

# 2. The systemd unit.  verify resolves ExecStart's binary: an installed one is checked as it
#    is, else a copy pointing at this build (the man page check needs it installed too).
UNIT=$MT_ROOT/contrib/systemd/migtrace-exporter.service
if ! command -v systemd-analyze >/dev/null; then
	skip systemd_unit_verify "no systemd-analyze on this host"
else
	if [ -x /usr/sbin/migtrace ] && man -w migtrace-run >/dev/null 2>&1; then
		check systemd_unit_verify systemd-analyze verify "$UNIT"
	else
		sed "s|/usr/sbin/migtrace|$MT|" "$UNIT" >"$MT_TMP/migtrace-exporter.service"
		check systemd_unit_verify systemd-analyze verify --man=no \
			"$MT_TMP/migtrace-exporter.service"
	fi
	check systemd_unit_hardened grep -qx "NoNewPrivileges=yes" "$UNIT"
fi

need_bpf_pair interval_tests || exit 0
if command -v promtool >/dev/null; then
	PROMTOOL=promtool
else
	PROMTOOL=
	fail interval_promtool "promtool not installed (apt-get install prometheus; make deps does)"
fi

# prom_total FILE: the sum of migtrace_migrations_total's series.
prom_total() {
	awk '/^migtrace_migrations_total\{/ { n += $2 } END { print n + 0 }' "$1"
}
# run_total FILE: the whole run's "migrations: N" of the text.
run_total() {
	sed -n 's/^migrations: \([0-9]*\) .*/\1/p' "$1"
}

# 3. Three blocks with time stamps, and the run ends after ~3 s, of a 10 s workload.
start=$(date +%s%N)
"$MT" run -T --interval 1s --count 3 wakeup -t 2 -d 10 >"$MT_TMP/blocks.out" 2>&1
rc=$?
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
check count_exit0 test "$rc" = 0
check count_three_blocks test "$(grep -cE '^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] interval [1-3]: ' \
	"$MT_TMP/blocks.out")" = 3
check count_no_partial_block test "$(grep -c 'partial' "$MT_TMP/blocks.out")" = 0
# 3 s of intervals, loading before and the workload's end after (SIGTERM, a grace of 2 s)
check count_ends_after_3s test "$took_ms" -ge 2900 -a "$took_ms" -lt 8000
check count_ended_by_count grep -q "ended by --count" "$MT_TMP/blocks.out"
check block_figures grep -q "hot at .* pulls judged" "$MT_TMP/blocks.out"
check block_completeness grep -q "completeness     the kernel counted" "$MT_TMP/blocks.out"

# 4. -j: a JSON object per line on stdout, whose migrations add up to the run's, the partial
#    last interval included (the run ends with the workload, inside an interval).  selfmig's
#    20 moves beside the wake-up workload: beside a CPU-bound process the wake-ups alone were
#    never placed on another CPU in 2 s once (no idle CPU: 0 migrations); selfmig moves
#    itself whatever else runs.
"$MT" run --interval 700ms -j -P -- sh -c '"$1" running 20 100 >/dev/null & "$2" -t 2 -d 2; wait' \
	sh "$MT_PROGS/selfmig" "$MT_ROOT/.output/workloads/wakeup" >"$MT_TMP/lines.json" 2>"$MT_TMP/lines.txt"
check json_lines_exit0 test $? = 0
check json_lines_parse python3 - "$MT_TMP/lines.json" "$(run_total "$MT_TMP/lines.txt")" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) >= 3, len(lines)
assert all(l["schema"] == "migtrace.interval/1" for l in lines)
assert [l["interval"] for l in lines] == list(range(1, len(lines) + 1))
assert lines[-1]["partial"] and not any(l["partial"] for l in lines[:-1]), [l["partial"] for l in lines]
# contiguous; each full one ends on the start's grid unless the host held migtrace past it
# (other tests' load: up to 0.3 s late was seen), the next then ending on the grid again
assert all(abs(a["start_s"] + a["length_s"] - b["start_s"]) < 1e-6 for a, b in zip(lines, lines[1:]))
assert all(l["length_s"] > 0 for l in lines), [l["length_s"] for l in lines]
total = sum(l["migrations"] for l in lines)
assert total == int(sys.argv[2]) and total > 0, (total, sys.argv[2])
assert lines[-1]["migrations_since_start"] == total
assert all(sum(l["by_cause"].values()) == l["migrations"] for l in lines)
assert all(sum(l["by_level"].values()) == l["migrations"] for l in lines)
assert all(len(l["pull_kernel_age_log2_us"]) == 28 for l in lines)
assert all(l["completeness"] is not None for l in lines)
assert all(len(l["top"]) <= 10 for l in lines) and any(l["top"] for l in lines)
print("ok")
PY

# 5. --textfile: promtool accepts it; its counters are the run's at the end; one *.prom.
X=$MT_TMP/textfile
mkdir -p "$X"
"$MT" run --interval 500ms --textfile "$X" -P wakeup -t 2 -d 2 >"$MT_TMP/tf.out" 2>&1
check textfile_exit0 test $? = 0
check textfile_written test -s "$X/migtrace.prom"
[ -n "$PROMTOOL" ] && check textfile_promtool promtool check metrics <"$X/migtrace.prom"
check textfile_total_is_runs test "$(prom_total "$X/migtrace.prom")" = "$(run_total "$MT_TMP/tf.out")"
check textfile_info grep -qE '^migtrace_build_info\{version="[^"]+",revision="[^"]+",backend="bpf"\} 1$' \
	"$X/migtrace.prom"
check textfile_workload_named grep -qE '^migtrace_run_info\{.*,workload="wakeup"\} 1$' "$X/migtrace.prom"
check textfile_threshold grep -qE '^migtrace_kernel_hot_seconds\{source="[^"]+"\} ' "$X/migtrace.prom"
check textfile_no_timestamps python3 - "$X/migtrace.prom" <<'PY'
import re, sys
for l in open(sys.argv[1]):
    if not l.startswith("#"):
        assert re.fullmatch(r'[a-z_0-9]+(\{.*\})? \S+\n', l), l
PY
check textfile_top_bounded test "$(grep -c '^migtrace_process_migrations_total{pid=' "$X/migtrace.prom")" -le 10
check textfile_no_pid_labels_without_P sh -c "! grep -v '^migtrace_process' '$X/migtrace.prom' | grep -q 'pid='"
check textfile_nothing_else test "$(ls -A "$X")" = migtrace.prom

# 5b. A command line can hold a secret, and a textfile is world-readable and scraped: no
#     export carries the workload's arguments, only its program's name.
Z=$MT_TMP/secret
mkdir -p "$Z/tf"
"$MT" run --interval 200ms --textfile "$Z/tf" --openmetrics "$Z/m.prom" --perfetto "$Z/t.json" \
	--csv "$Z/csv" -- sh -c 'sleep 0.5' password=hunter2 >"$Z.out" 2>&1
check secret_run_exit0 test $? = 0
check secret_in_no_export bash -c 'test -s "$1/tf/migtrace.prom" && test -s "$1/m.prom" &&
	test -s "$1/t.json" && ! grep -rl hunter2 "$1"' _ "$Z"
check secret_workload_is_program grep -qE '^migtrace_run_info\{.*,workload="sh"\} 1$' "$Z/tf/migtrace.prom"

# 6. SIGHUP rewrites the file and the run goes on; SIGTERM writes a last one, whole, and no
#    temporary is left.
Y=$MT_TMP/signals
mkdir -p "$Y"
"$MT" run --textfile "$Y" --interval 10s wakeup -t 2 -d 30 >"$MT_TMP/sig.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/sig.out" '^Tracing migrations'
sleep 1
rm -f "$Y/migtrace.prom"
kill -HUP $mt
wait_until 30 test -s "$Y/migtrace.prom"
check sighup_writes_file test -s "$Y/migtrace.prom"
check sighup_keeps_running kill -0 $mt
# a second exporter on the same directory is refused while the first runs: two writers of
# one file make its counters go backwards at every other scrape (issue 36)
out=$("$MT" run --textfile "$Y" wakeup -d 1 2>&1 >/dev/null); rc=$?
check textfile_second_exporter_refused bash -c '[ "$1" = 2 ] && [ "$(wc -l <<<"$2")" = 1 ] &&
	grep -q "another migtrace writes migtrace.prom there" <<<"$2"' _ "$rc" "$out"
sleep 0.5
kill -TERM $mt
wait $mt
rc=$?
check sigterm_status test "$rc" = 0 -o "$rc" = 143
[ -n "$PROMTOOL" ] && check sigterm_file_whole promtool check metrics <"$Y/migtrace.prom"
check sigterm_file_is_last test "$(prom_total "$Y/migtrace.prom")" = "$(run_total "$MT_TMP/sig.out")"
check sigterm_no_temporary test "$(ls -A "$Y")" = migtrace.prom

# 6b. Ctrl-C: the interval it fell in, marked partial with its real length, then the whole
#     run's summary (wakeup ignores SIGINT: SIGTERM follows 2 s later).
"$MT" run --interval 500ms wakeup -t 2 -d 30 >"$MT_TMP/int.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/int.out" '^Tracing migrations'
wait_for "$MT_TMP/int.out" '^interval 1:'	# one whole block, then the partial one
kill -INT $mt
wait $mt
check sigint_partial_then_summary python3 - "$MT_TMP/int.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
blocks = re.findall(r"^interval (\d+)( \(partial: the run ended in it\))?: \+([\d.]+) s to \+([\d.]+) s \(([\d.]+) s\)$", t, re.M)
assert len(blocks) >= 2, t[-2000:]
assert blocks[-1][1] and not any(b[1] for b in blocks[:-1]), blocks
assert float(blocks[-1][4]) <= 0.55, blocks[-1]
assert t.index("(partial") < t.index("\nmigrations: "), "the summary comes after the partial block"
PY

# 7. kill -9 between and during writes (every 20 ms): at most the temporary dotfile, which
#    node_exporter skips, is left beside a whole migtrace.prom; no other *.prom.
Z=$MT_TMP/kill9
mkdir -p "$Z"
"$MT" run --textfile "$Z" --interval 20ms wakeup -t 2 -d 30 >"$MT_TMP/k9.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/k9.out" '^Tracing migrations'
sleep 1.5
kill -KILL $mt
wait $mt 2>/dev/null
check kill9_one_prom test "$(cd "$Z" && ls -- *.prom)" = migtrace.prom
[ -n "$PROMTOOL" ] && check kill9_prom_whole promtool check metrics <"$Z/migtrace.prom"
check kill9_only_dot_temporaries sh -c "cd '$Z' && ! ls -A | grep -vE '^(migtrace\.prom|\.migtrace\.prom\.[A-Za-z0-9]{6})$'"
# and the next exporter on the directory removes such temporaries (kept forever before:
# 25 kills left 7, issue 36), saying so; nothing else of the directory's is touched
touch "$Z/.migtrace.prom.Ab12Cd" "$Z/.migtrace.prom.zz99ZZ" "$Z/.other.prom.Ab12Cd"
"$MT" run --textfile "$Z" --interval 20ms -- true >"$MT_TMP/k9b.out" 2>&1
check kill9_next_exporter_cleans bash -c 'grep -qE "^migtrace: --textfile .*: removed [0-9]+ temporar(y|ies) \(\.migtrace\.prom\.\*\) left by an exporter that was killed$" "$1" &&
	[ -z "$(cd "$2" && ls -A | grep -E "^\.migtrace\.prom\.")" ] && [ -e "$2/.other.prom.Ab12Cd" ] &&
	[ -s "$2/migtrace.prom" ]' _ "$MT_TMP/k9b.out" "$Z"
check no_programs_after_interval_runs no_programs_left

# 8. A reader that goes away (`| head -2`) ends the run as Ctrl-C would: with SIGPIPE ignored
#    the interval lines fail with EPIPE, and before, tracing went on with nobody reading
#    (issue 36).  Bounded by timeout: 124 would be the hang.
timeout 30 bash -c '"$1" run -a 1 2>/dev/null | head -n 2 >/dev/null; exit "${PIPESTATUS[0]}"' _ "$MT"
rc=$?
check reader_gone_ends_run bash -c '[ "$1" != 124 ] && [ "$1" != 141 ]' _ "$rc"
check no_programs_after_reader_gone no_programs_left
