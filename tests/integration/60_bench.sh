#!/usr/bin/env bash
# make bench's harness, in miniature: one repetition of the pinned pipe under every
# configuration, so that the benchmark cannot rot between the runs people make of it.  No
# figure is judged against a target here (that is `make bench`'s job, on a quiet machine);
# what is checked is that every figure is there and means what it says.
. "$(dirname "$0")/../lib.sh"

need_bpf_pair bench_smoke || exit 0
for tool in perf bpftrace bpftool; do
	if ! command -v "$tool" >/dev/null; then
		fail bench_smoke "$tool is not installed (make deps installs it)"
		exit 0
	fi
done

stats_before=$(cat /proc/sys/kernel/bpf_stats_enabled)
# --scale 4: every workload a quarter of its loops (the figures are per event), so that the
# smoke costs ~1/3 of its 148 s on an EPYC VM; the pinned pipe then makes ~100 k switches
python3 "$MT_ROOT/bench/bench.py" --reps 1 --stats-reps 1 --workloads pipe-pinned \
	--scaling-groups 2 --calibrate-reps 3 --syswide-reps 1 --scale 4 -o "$MT_TMP/bench.json" >"$MT_TMP/bench.out" 2>"$MT_TMP/bench.err"
rc=$?
check bench_smoke_exit0 bash -c '[ "$1" = 0 ] || { tail -3 "$2"; exit 1; }' _ "$rc" "$MT_TMP/bench.err"
# the machine lines: every configuration's figures, and calibrate's
check bench_lines_complete python3 - "$MT_TMP/bench.out" <<'PY'
import sys
lines = {tuple(l.split()[1:4]): l.split()[4] for l in open(sys.argv[1]) if l.startswith("bench: ")}
want = [(c, "pipe-pinned", "ratio") for c in ("migtrace", "migtrace-other", "perf-sched",
                                              "bpftrace-same", "bpftrace-count")]
want += [(c, "pipe-pinned", m) for c in ("migtrace", "migtrace-other", "bpftrace-same",
                                         "bpftrace-count") for m in ("ns_per_switch", "ns_per_switch_net")]
want += [(c, "pipe-pinned", m) for c in ("migtrace", "migtrace-other")
         for m in ("user_cpu_pct", "rss_kib", "bytes_written", "dropped")]
want += [("perf-sched", "pipe-pinned", "bytes_written"), ("calibrate", "2cpu", "seconds"),
         ("calibrate", "2cpu", "hot_time_cv_pct")]
# the scaling pass (one group here) and the targets this run measured, each met or missed
want += [(c, "hackbench-g2", m) for c in ("migtrace", "bpftrace-count")
         for m in ("ns_per_switch_net", "ns_per_migrate_net")]
# the bracketed pass: all of each tool's cost per event
want += [(c, "pipe-pinned", "full_ns_per_switch") for c in ("bpf-empty", "migtrace", "migtrace-other",
                                                            "bpftrace-same", "bpftrace-count")]
want += [(c, "pipe-pinned", "full_ns_per_switch_net") for c in ("migtrace", "bpftrace-count")]
# the system-wide pass: migtrace run -a beside bpftrace counting one event
want += [(c, "system-wide", m) for c in ("migtrace-all", "bpftrace-switch")
         for m in ("full_ns_per_switch", "time_ratio")]
want += [(c, "system-wide", "full_ns_per_migrate") for c in ("migtrace-all", "bpftrace-migrate")]
targets = {k[1]: k[2] for k in lines if k[0] == "target"}
assert {"syswide_switch_ratio", "syswide_migrate_ratio"} <= set(targets), targets
assert {"pipe-pinned_ns_per_switch", "pipe-pinned_filtered_ns_per_switch", "pipe_pinned_ratio",
        "calibrate_cv", "pipe-pinned_ns_per_switch_bpf_stats"} <= set(targets), targets
assert set(targets.values()) <= {"met", "missed"}, targets
missing = [w for w in want if w not in lines]
assert not missing, missing
float(lines[("migtrace", "pipe-pinned", "ratio")])
PY
# the figures mean what they say: an untraced task costs migtrace less than a traced one,
# the traced pipe's ~100 k switches were all counted, perf wrote far more than migtrace; and
# bracketed, tracing a task costs more than an empty program, and so does bpftrace's counting.
# Not checked here: bpftrace's full cost above its bpf_stats run time (the classic
# tracepoint's record fill).  The two come from different passes and the bpf_stats figure
# carries a clock read of its own, so with one repetition on a shared machine the fill
# (tens of ns) is inside the noise: a fresh-clone run had 231 ns bracketed vs 245 ns.
check bench_figures_sane json "$MT_TMP/bench.json" \
	"(lambda c: c['migtrace']['ns_per_switch']['median'] > c['migtrace-other']['ns_per_switch']['median'] > 0 and c['migtrace']['runs_switch']['median'] >= 100000 and c['perf-sched']['bytes_written']['median'] > 100 * c['migtrace']['bytes_written']['median'] and c['migtrace']['dropped']['median'] == 0 and 0 < c['migtrace']['rss_kib']['median'] < 65536 and c['migtrace']['full_ns_per_switch']['median'] > c['bpf-empty']['full_ns_per_switch']['median'] > 0 and c['bpftrace-count']['full_ns_per_switch']['median'] > c['bpf-empty']['full_ns_per_switch']['median'])(d['workloads']['pipe-pinned']['configs'])" \
	"d['workloads']['pipe-pinned']['configs']"
check bench_restores_bpf_stats test "$(cat /proc/sys/kernel/bpf_stats_enabled)" = "$stats_before"

# bench/ab.py: builds compared bracketed; one repetition of a short pinned pipe, an empty
# program and this build, each row with its four figures, migtrace's above the empty one's;
# run with a /tmp of its own, which it leaves as empty as it found it (its migtrace-ab.*
# directory, a FIFO in it, stayed behind before)
ab=(python3 "$MT_ROOT/bench/ab.py" --reps 1 bpf-empty "$MT" -- taskset -c 1 perf bench sched
	pipe -l 20000)
if private_tmp_ok; then
	in_private_tmp "$MT_TMP/ab.left" "${ab[@]}" >"$MT_TMP/ab.out" 2>"$MT_TMP/ab.err"
	check bench_ab_leaves_no_temp bash -c '[ ! -s "$1" ] || { cat "$1"; exit 1; }' _ \
		"$MT_TMP/ab.left"
else
	"${ab[@]}" >"$MT_TMP/ab.out" 2>"$MT_TMP/ab.err"
	skip bench_ab_leaves_no_temp "no /tmp of its own can be made here (unshare -m needs root)"
fi
check bench_ab_rows python3 - "$MT_TMP/ab.out" "$MT" <<'PY'
import math, sys
rows = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(sys.argv[1])
        if l.split() and (l.startswith("bpf-empty") or l.startswith(sys.argv[2]))}
assert set(rows) == {"bpf-empty", sys.argv[2]}, open(sys.argv[1]).read()
assert all(len(v) == 4 and not math.isnan(v[0]) for v in rows.values()), rows
assert rows[sys.argv[2]][0] > rows["bpf-empty"][0], rows
print("ok")
PY
