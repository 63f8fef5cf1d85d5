#!/usr/bin/env bash
# The exports (--csv, --prometheus, --openmetrics, --perfetto, --plot, --what-if): golden CSV
# and Prometheus text files from the checked-in sample run, promtool's lint, the Perfetto file's
# tracks and events counted against the run's records, the plots' PNG/SVG checked, the
# what-if figures against a hand computation, every bad input refused in one line with exit 2
# and nothing written, and (live) run's exports made again by report, byte for byte.
. "$(dirname "$0")/../lib.sh"

DATA=$MT_ROOT/tests/data
WHATIF=0.5ms,2.5ms,5ms,10ms,25ms
E=$MT_TMP/exp
mkdir -p "$E"

# 1. Golden files.  A change to an exporter shows here first: regenerate them on purpose
#    (migtrace report --csv tests/data/sample-run-csv --prometheus tests/data/sample-run.prom
#    --what-if 0.5ms,2.5ms,5ms,10ms,25ms tests/data/sample-run.json; its build_info's version
#    and revision made "VERSION" and "REVISION") and say why in the commit.
"$MT" report --csv "$E/csv" --prometheus "$E/run.prom" --openmetrics "$E/run.om" --perfetto "$E/trace.json" \
	--plot "$E/plots" --what-if "$WHATIF" "$DATA/sample-run.json" >"$E.txt" 2>"$E.err"
check exports_report_ok bash -c '[ -s "$1" ] && [ ! -s "$2" ]' _ "$E.txt" "$E.err"
for f in migrations units correlation histograms levels rules whatif; do
	check "golden_csv_$f" cmp "$E/csv/$f.csv" "$DATA/sample-run-csv/$f.csv"
done
check golden_openmetrics bash -c 'sed "s/^migtrace_build_info{version=\"[^\"]*\",revision=\"[^\"]*\"/migtrace_build_info{version=\"VERSION\",revision=\"REVISION\"/" "$1" |
	cmp - "$2"' _ "$E/run.prom" "$DATA/sample-run.prom"
# the version is the binary's, as --version says it ("migtrace 0.1 (f85a8a2)")
check openmetrics_build_info grep -qxF "$("$MT" --version | sed 's/^migtrace \([^ ]*\) (\(.*\))$/migtrace_build_info{version="\1",revision="\2",backend="bpf"} 1/')" "$E/run.prom"
# a scraped file is world-readable: no label holds the workload's arguments
check openmetrics_no_arguments bash -c '! grep -e "--controlled" -e "--ages" "$1" &&
	grep -qF "workload=\"cachewalk\"" "$1"' _ "$E/run.prom"
# the text is the report's, then the what-if table
check whatif_text_after_report bash -c 'head -n "$(wc -l <"$2")" "$1" | cmp - "$2" &&
	grep -q "^what if (an estimate from this run" "$1"' _ "$E.txt" "$DATA/sample-run.txt"

# 1b. The calibration matrix (calibration.measured.cells, optional): a checked-in validate run
#     that has it is reported byte for byte and written again unchanged, and --plot draws it;
#     the older sample has none, so no such plot, and its text says so in one line.
V=$DATA/sample-validate.json
"$MT" report --plot "$E/vplots" -o "$E/v-again.json" "$V" >"$E/v.txt" 2>"$E/v.err"
check matrix_report_golden cmp "$E/v.txt" "$DATA/sample-validate.txt"
# a migtrace.run/2 file is written back as /3, and that again as the same bytes
check matrix_json_round_trip bash -c '"$1" report -j "$2" 2>/dev/null | cmp - "$2"' \
	_ "$MT" "$E/v-again.json"
check matrix_plot_drawn python3 - "$E/vplots" "$V" <<'PY'
import json, os, struct, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[2]))
cells = d["calibration"]["measured"]["cells"]
png = open(os.path.join(sys.argv[1], "calibration-matrix.png"), "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (960, 600), "png"
assert 5000 < len(png) < 2000000, len(png)
svgf = os.path.join(sys.argv[1], "calibration-matrix.svg")
text = "".join(ET.parse(svgf).getroot().itertext())
for w in ["destination CPU", "source CPU", "median undisturbed fill time after the move (µs)",
          "Calibration matrix (validate, method 2004)", "1000 timed fills per pair"]:
    assert w in text, w
# every cell's figures are written in it, as the text formats times (3 significant digits)
def us(ns):
    return "%.3g µs" % (ns / 1000) if ns / 1000 >= 100 or "." in "%.3g" % (ns / 1000) else "%.1f µs" % (ns / 1000)
for c in cells:
    for w in ["undisturbed %s (%d fills)" % (us(c["fill_undisturbed_median_ns"]), c["fills_undisturbed"]),
              "all fills: median %s" % us(c["fill_median_ns"])]:
        assert w in text, (w, text)
PY
check matrix_no_line_when_drawn bash -c '! grep -q "calibration-matrix" "$1"' _ "$E/v.txt"
check matrix_absent_said_once bash -c '[ "$(grep -c "^plots: no calibration-matrix plot: its run file predates calibration.measured.cells$" "$1")" = 1 ] &&
	[ ! -e "$2/calibration-matrix.png" ] && [ ! -e "$2/calibration-matrix.svg" ]' _ "$E.txt" "$E/plots"
# malformed when present: one line, exit 2, nothing written
python3 - "$V" "$MT_TMP/badcells.json" "$MT_TMP/threecells.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["calibration"]["measured"]["cells"][1]["dst_cpu"] = 0
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["calibration"]["measured"]["cells"].pop()
json.dump(d, open(sys.argv[3], "w"))
PY
for bad in badcells:"cells\[1\]: CPUs 0 -> 0, not 0 -> 1" threecells:"3 cells, not 4"; do
	rm -rf "$E/badplot"
	out=$("$MT" report --plot "$E/badplot" "$MT_TMP/${bad%%:*}.json" 2>"$E/bad.err"); rc=$?
	check "matrix_malformed_${bad%%:*}" bash -c '[ "$1" = 2 ] && [ -z "$2" ] && [ "$(wc -l <"$3")" = 1 ] &&
		grep -q "$4" "$3" && [ -z "$(ls -A "$5" 2>/dev/null)" ]' _ "$rc" "$out" "$E/bad.err" "${bad#*:}" "$E/badplot"
done

# 1c. --openmetrics is OpenMetrics 1.0, as an OpenMetrics parser (Debian's
#     python3-prometheus-client, under Debian's own python3) reads it: the samples of the
#     text format's (--prometheus), each family typed alike, counters without _total, and
#     # EOF at the end.
OM_SAME=$MT_ROOT/tests/integration/om_same.py
check openmetrics1_same_samples /usr/bin/python3 "$OM_SAME" "$E/run.prom" "$E/run.om"

# 2. promtool (Debian's prometheus) lints the exposition: both samples, with and without what-if.
if command -v promtool >/dev/null; then
	check promtool_sample promtool check metrics <"$E/run.prom"
	"$MT" report --prometheus "$E/b.prom" "$DATA/sample-run-b.json" >/dev/null
	check promtool_sample_b promtool check metrics <"$E/b.prom"
else
	fail promtool_sample "promtool not installed (apt-get install prometheus; make deps does)"
fi
# the histogram is cumulative, ends in +Inf = _count, and its _sum is the records' exact sum
check openmetrics_histogram python3 - "$E/run.prom" "$DATA/sample-run.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
assert "# EOF" not in text and not re.search(r"^\w+(\{[^}]*\})? \S+ \S+$", text, re.M), "timestamps"
for cause, slots in d["histograms"]["age"].items():
    b = [int(v) for v in re.findall(r'_bucket\{cause="%s",le="[^"]+"\} (\d+)' % cause, text)]
    assert len(b) == 28 and b == sorted(b), (cause, b)
    cum = 0
    for k in range(27):
        cum += slots[k]
        assert b[k] == cum, (cause, k)
    assert b[27] == sum(slots), cause
    n = int(re.search(r'_count\{cause="%s"\} (\d+)' % cause, text).group(1))
    s = float(re.search(r'_sum\{cause="%s"\} (\S+)' % cause, text).group(1))
    want = sum(m["age_ns"] for m in d["migrations"] if m["cause"] == cause) / 1e9
    assert n == sum(slots) == d["stats"]["by_cause"][cause] and abs(s - want) < 1e-12, cause
assert "_sum is exact" in text
for p in d["cpu_pairs"]:
    assert 'migtrace_cpu_pair_migrations_total{src_cpu="%d",dst_cpu="%d"} %d' % (p["src"], p["dst"], p["count"]) in text
assert 'migtrace_calibrated_hot_seconds{robust="true"} 0.00026742\n' in text
assert 'migtrace_verdict_factor{verdict="too low",exact="false"} 10\n' in text
PY
# a run whose records are not all kept: the sum is said to be estimated, and still lints
python3 - "$DATA/sample-run.json" "$MT_TMP/cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["migrations"] = d["migrations"][:10]
d["stats"]["records_read"] = 10
d["stats"]["records_not_kept"] = 20
# as a run with --max-records 10: the first 10 of each kind kept, the rest counted, the
# correlation made of the units kept
d["config"]["max_records"] = 10
d["units"] = d["units"][:10]
d["stats"]["units_read"], d["stats"]["units_not_kept"] = 10, 110
d["correlation"]["units"] = 10
json.dump(d, open(sys.argv[2], "w"))
PY
"$MT" report --prometheus "$E/cut.prom" "$MT_TMP/cut.json" >/dev/null
check openmetrics_sum_estimated bash -c 'grep -q "_sum is an estimate from slot midpoints" "$1" &&
	grep -q "migtrace_records_not_kept_total{kind=\"migration\"} 20" "$1" &&
	{ ! command -v promtool >/dev/null || promtool check metrics <"$1"; }' _ "$E/cut.prom"

# 2b. A grid's OpenMetrics: D* with the bound the run has, each rate achieved and judged, and
#     it lints.
"$MT" report --prometheus "$E/grid.prom" --openmetrics "$E/grid.om" "$DATA/sample-grid.json" >/dev/null
check openmetrics1_grid_same_samples /usr/bin/python3 "$OM_SAME" "$E/grid.prom" "$E/grid.om"
check openmetrics_grid python3 - "$E/grid.prom" "$DATA/sample-grid.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
c, v = d["correlation"], d["verdict"]
m = re.search(r'^migtrace_dstar_bytes\{state="([^"]*)",bound="estimate"\} (\S+)$', text, re.M)
assert m and m.group(1) == c["dstar_state"] and float(m.group(2)) == c["dstar_bytes"], m
assert ('bound="upper"' in text) == (c["dstar_hi_bytes"] is not None)
for r in c["rates"]:
    assert re.search(r'^migtrace_polluter_achieved_bytes_per_second\{target="[^"]*"\} ', text, re.M)
assert len(re.findall(r'^migtrace_rate_hot_seconds\{', text, re.M)) == len(v["rates"])
print("ok")
PY
check openmetrics_grid_lints bash -c '! command -v promtool >/dev/null || promtool check metrics <"$1"' \
	_ "$E/grid.prom"

# 3. CSV: the columns are the run file's members (units in their names), a row per record:
#    those of the sample as this migtrace writes it (migtrace.run/3; the sample is /2).
"$MT" report -o "$E/run3.json" "$DATA/sample-run.json" >/dev/null 2>&1
check csv_columns_are_schema python3 - "$E/csv" "$E/run3.json" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[2]))
def rows(name):
    return list(csv.reader(open(sys.argv[1] + "/" + name, newline="")))
m = rows("migrations.csv")
assert m[0] == list(d["migrations"][0].keys()) and len(m) == 1 + len(d["migrations"]), m[0]
for row, rec in zip(m[1:], d["migrations"]):
    for k, v in zip(m[0], row):
        want = rec[k]
        assert v == ("" if want is None else str(want)), (k, v, want)
u = rows("units.csv")
keys = max((list(x.keys()) for x in d["units"]), key=len)
assert u[0] == keys and len(u) == 1 + len(d["units"]), u[0]
c = rows("correlation.csv")
assert c[0] == ["mode"] + list(d["correlation"]["cells"][0].keys()) and len(c) == 1 + len(d["correlation"]["cells"])
h = rows("histograms.csv")
assert h[0][:3] == ["slot", "lo_us", "hi_us"] and len(h) == 29 and h[28][2] == ""
for k in range(28):
    assert int(h[k + 1][1]) == (0 if k == 0 else 2 ** k)
    for i, cause in enumerate(d["histograms"]["age"]):
        assert h[0][3 + i] == "age_" + cause and int(h[k + 1][3 + i]) == d["histograms"]["age"][cause][k]
PY

# 4. What-if against a hand computation: the sample has no pulls or wakeups, so a copy whose
#    first 12 records are made pulls (kernel ages 0.1, 0.6, 3, 20 ms) and wakeups (ages 0.2,
#    1, 4, 30 ms); the cost: each cell whose age is under T, n_migrated x cost.  The counts
#    and histograms follow the records, as a run's do (the reader checks that they agree).
python3 - "$DATA/sample-run.json" "$MT_TMP/mod.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, m in enumerate(d["migrations"][:12]):
    if i % 3 == 0:
        m["cause"], m["kernel_age_ns"], m["flags"] = "lb_pull", [100000, 600000, 3000000, 20000000][i // 3], m["flags"] | 1
    elif i % 3 == 1:
        m["cause"], m["age_ns"] = "wakeup", [200000, 1000000, 4000000, 30000000][i // 3]
s, h, hot = d["stats"], d["histograms"], d["meta"]["hot_ns"]
def slot(ns):  # the kernel's log2 µs slot (bpf/migtrace.bpf.c, log2_slot)
    return min(max((ns // 1000).bit_length() - 1, 0), 27)
s["by_cause"] = {c: 0 for c in s["by_cause"]}
h["age"] = {c: [0] * 28 for c in h["age"]}
h["kernel_age_lb_pull"] = [0] * 28
s["lb_judged"] = s["lb_hot"] = s["wakeup_records"] = s["wakeup_hot"] = 0
for m in d["migrations"]:
    s["by_cause"][m["cause"]] += 1
    h["age"][m["cause"]][slot(m["age_ns"])] += 1
    if m["cause"] == "lb_pull":
        h["kernel_age_lb_pull"][slot(m["kernel_age_ns"])] += 1
        s["lb_judged"] += 1
        s["lb_hot"] += m["kernel_age_ns"] < hot
    if m["cause"] == "wakeup":
        s["wakeup_records"] += 1
        s["wakeup_hot"] += m["age_ns"] < hot
c = s["completeness"]
c["kernel_counted"] = c["seen"] = s["migrations"] - s["by_cause"]["fork"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$MT" report --csv "$E/mod" --what-if "$WHATIF" "$MT_TMP/mod.json" >"$E/mod.txt"
check whatif_hand_computed python3 - "$E/mod/whatif.csv" "$MT_TMP/mod.json" "$E/mod.txt" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read()
hand = {  # T: (pulls hot of 4, wakeups younger of 4, cells under T)
    500000: (1, 1, 1), 2500000: (2, 2, 2), 5000000: (3, 3, 2), 10000000: (3, 3, 3), 25000000: (4, 3, 3)}
cells = d["correlation"]["cells"]
assert [int(r["threshold_ns"]) for r in rows] == list(hand)
for r in rows:
    t = int(r["threshold_ns"])
    lb, wk, nc = hand[t]
    assert (int(r["lb_pulls_judged"]), int(r["lb_pulls_hot"])) == (4, lb), r
    assert (int(r["wakeups"]), int(r["wakeups_younger"])) == (4, wk), r
    under = [c for c in cells if c["age_ns"] < t]
    assert int(r["cost_cells"]) == nc == len(under), r
    cost = sum(c["n_migrated"] * max(c["migration_cost_ns"], 0) for c in under)
    assert abs(float(r["refill_cost_ns"]) - cost) < 1e-6 and r["records_complete"] == "true", (r, cost)
    assert int(r["cost_units"]) == sum(c["n_migrated"] for c in under)
# all ages under T: the cost is the correlation's own total
assert abs(float(rows[-1]["refill_cost_ns"]) - d["correlation"]["lost_ns"]) < 1e-6
assert "      500 µs  1 of 4 (25.0 %)           1 of 4 (25.0 %)           1.66 ms over 4 units (1 age)" in text
assert "an estimate from this run" in text
PY

# 5. Perfetto, native: FILE.pftrace is a protobuf Trace that protoc decodes against the
#    project's perfetto_trace.proto (Debian's protobuf-compiler), holding a thread track per
#    thread, each migration on its thread's and its CPU's track, each unit as a slice.
PFPROTO=$MT_ROOT/analysis/render/perfetto_trace.proto
"$MT" report --perfetto "$E/trace.pftrace" "$DATA/sample-run.json" >/dev/null
check perfetto_native_counts python3 "$MT_ROOT/tests/integration/pftrace_counts.py" "$PFPROTO" \
	"$E/trace.pftrace" "$DATA/sample-run.json"
#    A run made with --perfetto FILE.pftrace records the context switches of its tasks
#    (either side), kept in its run file: per-CPU sched_switch bundles, by both backends,
#    and report makes the same bytes from the file.
for b in bpf ftrace; do
	"$MT" run --backend "$b" --perfetto "$E/sw-$b.pftrace" -o "$E/sw-$b.json" wakeup -t 4 -d 1 \
		>/dev/null 2>"$E/sw-$b.err"
	check "perfetto_native_switches_$b" bash -c 'python3 "$1" "$2" "$3" "$4" &&
		python3 -c "import json, sys; d = json.load(open(sys.argv[1])); s = d[\"stats\"]; sys.exit(not (
			d[\"switches\"] and len(d[\"switches\"]) == s[\"switch_records\"] and
			d[\"wakings\"] and len(d[\"wakings\"]) == s[\"waking_records\"]))" "$4" &&
		"$5" report --perfetto "$3.again.pftrace" "$4" >/dev/null && cmp "$3" "$3.again.pftrace"' \
		_ "$MT_ROOT/tests/integration/pftrace_counts.py" "$PFPROTO" "$E/sw-$b.pftrace" \
		"$E/sw-$b.json" "$MT"
done
#    and trace-event JSON (any other name) with a track per thread, units as slices,
#    migrations as instants carrying src/dst/age/cause, and a track per CPU; counted
#    against the records.
check perfetto_tracks_events python3 - "$E/trace.json" "$DATA/sample-run.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
ev = t["traceEvents"]
CPU = 1 << 22
threads = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] != CPU}
want = {m["pid"] for m in d["migrations"]} | {u["pid"] for u in d["units"]}
assert threads == want, (threads, want)
cpus = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == CPU}
assert cpus == {"CPU %d" % c for m in d["migrations"] for c in (m["src_cpu"], m["dst_cpu"])}, cpus
sl = [e for e in ev if e["ph"] == "X" and e["pid"] != CPU]
assert len(sl) == len(d["units"])
for e, u in zip(sl, d["units"]):
    assert e["tid"] == u["pid"] and abs(e["ts"] * 1000 - u["start_ns"]) < 1 and abs(e["dur"] * 1000 - (u["end_ns"] - u["start_ns"])) < 1
inst = [e for e in ev if e["ph"] == "i" and e["pid"] != CPU]
assert len(inst) == len(d["migrations"])
for e, m in zip(inst, d["migrations"]):
    a = e["args"]
    assert (e["tid"], a["src_cpu"], a["dst_cpu"], a["age_ns"], a["cause"]) == (m["pid"], m["src_cpu"], m["dst_cpu"], m["age_ns"], m["cause"])
whole = [u for u in d["units"] if u["cpu_start"] == u["cpu_end"] and not u["switches_during"] and not u["migs_during"]]
assert len([e for e in ev if e["ph"] == "X" and e["pid"] == CPU]) == len(whole)
assert len([e for e in ev if e["ph"] == "i" and e["pid"] == CPU]) == len(d["migrations"])
# slices on one track nest or follow each other, as the importer needs
for key in {(e["pid"], e["tid"]) for e in ev if e["ph"] == "X"}:
    xs = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) == key)
    for (a0, a1), (b0, b1) in zip(xs, xs[1:]):
        assert b0 >= a1 - 1e-3 or b1 <= a1, (key, a0, a1, b0, b1)
PY

# 6. Plots: PNG (signature, 960x600) and SVG (XML with the axis labels), of a sensible size.
check plots_valid python3 - "$E/plots" <<'PY'
import os, struct, sys, xml.etree.ElementTree as ET
labels = {"cost-vs-age": ["age at migration (µs, log scale)", "migration cost (µs)", "calibrated", "kernel", "observed"],
          "age-histogram": ["age at migration (µs, log2 slot", "migrations", "kernel threshold 500 µs", "affinity change"],
          "cpu-pairs": ["destination CPU", "source CPU", "migrations"]}
for name, want in labels.items():
    png = open(os.path.join(sys.argv[1], name + ".png"), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", name
    assert struct.unpack(">II", png[16:24]) == (960, 600) and 5000 < len(png) < 2000000, name
    svgf = os.path.join(sys.argv[1], name + ".svg")
    root = ET.parse(svgf).getroot()
    assert root.tag.endswith("svg") and 5000 < os.path.getsize(svgf) < 2000000, name
    text = "".join(root.itertext())
    for w in want:
        assert w in text, (name, w)
assert sorted(f for f in os.listdir(sys.argv[1])) == sorted(n + e for n in labels for e in (".png", ".svg")), os.listdir(sys.argv[1])
PY
# a grid of polluter rates (the recorded one of tests/data) adds its two plots: each rate's
# cost and fit by bytes displaced and by age, with the kernel's value; no other run has them
rm -rf "$MT_TMP/gplots"
"$MT" report --plot "$MT_TMP/gplots" "$MT_ROOT/tests/data/sample-grid.json" >/dev/null 2>&1
check grid_plots_valid python3 - "$MT_TMP/gplots" <<'PY'
import os, struct, sys, xml.etree.ElementTree as ET
labels = {"grid-vs-bytes": ["bytes the polluter displaced while away (KiB, log scale)", "migration cost (µs)", "200 MB/s", "2.00 GB/s", "as fast as it can"],
          "grid-vs-age": ["age at migration (µs, log scale)", "regime: not tested; verdict: undetermined", "kernel 500 µs", "200 MB/s"]}
for name, want in labels.items():
    png = open(os.path.join(sys.argv[1], name + ".png"), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (960, 600), name
    text = "".join(ET.parse(os.path.join(sys.argv[1], name + ".svg")).getroot().itertext())
    for w in want:
        assert w in text, (name, w)
PY
check grid_plots_only_for_grids test ! -e "$E/plots/grid-vs-age.png"

# 7. Bad input: one line naming the option and the path or token, exit 2, nothing written.
# bad_export NAME EXPECT CMD ARGS...: must fail so, stdout empty, nothing new in $MT_TMP/out.
bad_export() {
	local name=$1 expect=$2 out rc
	shift 2
	rm -rf "$MT_TMP/out" && mkdir -p "$MT_TMP/out"
	out=$("$MT" "$@" 2>"$MT_TMP/err")
	rc=$?
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$(wc -l <"$MT_TMP/err")" = 1 ] &&
		grep -qE -- "$expect" "$MT_TMP/err" && [ -z "$(ls -A "$MT_TMP/out")" ] &&
		[ ! -e "$MT_TMP/ran" ]; then
		pass "$name"
	else
		fail "$name" "rc=$rc stdout=${out:0:80} stderr=$(head -c 300 "$MT_TMP/err") out=$(ls -A "$MT_TMP/out" | tr '\n' ' ')"
	fi
}
S=$DATA/sample-run.json
O=$MT_TMP/out
: >"$MT_TMP/plain-file"
bad_export report_csv_no_parent "migtrace report: --csv: cannot make $O/no/dir: directory $O/no does not exist" \
	report --csv "$O/no/dir" "$S"
bad_export report_csv_is_file "migtrace report: --csv: $MT_TMP/plain-file is not a directory" \
	report --csv "$MT_TMP/plain-file" "$S"
bad_export report_openmetrics_no_dir "migtrace report: --openmetrics: cannot write $O/no/x.prom: directory $O/no does not exist" \
	report --openmetrics "$O/no/x.prom" "$S"
bad_export report_openmetrics_is_dir "migtrace report: --openmetrics: $O is a directory" \
	report --openmetrics "$O" "$S"
bad_export report_openmetrics_stdout "migtrace report: --openmetrics: '-': name a file" \
	report --openmetrics - "$S"
bad_export report_perfetto_no_dir "migtrace report: --perfetto: cannot write $O/no/t.json: directory $O/no does not exist" \
	report --perfetto "$O/no/t.json" "$S"
bad_export report_plot_no_parent "migtrace report: --plot: cannot make $O/a/b: directory $O/a does not exist" \
	report --plot "$O/a/b" "$S"
rm -rf "$O" && mkdir -p "$O"
out=$(PATH=/nonexistent "$MT" report --plot "$O/p" "$S" 2>"$MT_TMP/err")
rc=$?
check report_plot_no_gnuplot bash -c '[ "$1" = 2 ] && [ -z "$2" ] && [ "$(wc -l <"$3")" = 1 ] &&
	grep -q "migtrace report: --plot: gnuplot is not in PATH: install it" "$3" && [ ! -e "$4/p" ]' \
	_ "$rc" "$out" "$MT_TMP/err" "$O"
bad_export report_exports_two_runs "the exports and --what-if are of one run" \
	report --csv "$O" "$S" "$DATA/sample-run-b.json"
bad_export whatif_bad_unit "--what-if: '5xs' is not a threshold" report --what-if 1ms,5xs "$S"
bad_export whatif_empty "--what-if: give thresholds" report --what-if "" "$S"
bad_export whatif_empty_token "--what-if: '1ms,,2ms' has an empty threshold" report --what-if 1ms,,2ms "$S"
bad_export whatif_negative "--what-if: '-1ms' is not a threshold" report --what-if=-1ms "$S"
bad_export whatif_too_many "--what-if: .*at most 16 thresholds" report \
	--what-if 1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms,11ms,12ms,13ms,14ms,15ms,16ms,17ms "$S"
# a bad report input with good exports: no export written
bad_export report_bad_input_no_export "no-such.json: cannot open it" report --csv "$O/c" \
	--openmetrics "$O/m.prom" --plot "$O/p" "$MT_TMP/no-such.json"
# run and validate: refused before anything runs (the workload would create $MT_TMP/ran)
bad_export run_csv_no_parent "migtrace run: --csv: cannot make $O/no/dir: directory $O/no does not exist" \
	run --csv "$O/no/dir" -- touch "$MT_TMP/ran"
bad_export run_openmetrics_no_dir "migtrace run: --openmetrics: cannot write $O/no/x.prom" \
	run --openmetrics "$O/no/x.prom" -- touch "$MT_TMP/ran"
bad_export run_whatif_bad "--what-if: 'x' is not a threshold" run --what-if x -- touch "$MT_TMP/ran"
bad_export validate_plot_no_parent "migtrace validate: --plot: cannot make $O/a/b: directory $O/a does not exist" \
	validate --plot "$O/a/b"
bad_export validate_perfetto_is_dir "migtrace validate: --perfetto: $O is a directory" \
	validate --perfetto "$O"

# 8. Live: run's exports are the model's, so report makes the same files from the run file.
need_bpf_pair exports_live || exit 0
L=$MT_TMP/live
mkdir -p "$L"
"$MT" run -o "$L/run.json" --csv "$L/csv" --prometheus "$L/run.prom" --openmetrics "$L/run.om" \
	--perfetto "$L/trace.json" \
	--plot "$L/plots" --what-if "$WHATIF" cachewalk --threads 2 --load 1 --duration 1 \
	>"$L/run.out" 2>"$L/run.err"
check live_run_exports bash -c '[ -s "$1/csv/units.csv" ] && [ -s "$1/run.prom" ] && [ -s "$1/trace.json" ] &&
	[ -s "$1/plots/age-histogram.png" ] && grep -q "^what if (an estimate from this run" "$1/run.out"' _ "$L"
"$MT" report --csv "$L/rcsv" --prometheus "$L/r.prom" --openmetrics "$L/r.om" --perfetto "$L/r.json" \
	--what-if "$WHATIF" \
	--plot "$L/rplots" "$L/run.json" >"$L/rep.out"
check live_report_same_exports bash -c 'for f in migrations units correlation histograms whatif; do
	cmp "$1/csv/$f.csv" "$1/rcsv/$f.csv" || exit 1; done
	cmp "$1/run.prom" "$1/r.prom" && cmp "$1/run.om" "$1/r.om" && cmp "$1/trace.json" "$1/r.json" &&
	cmp <(grep -vE "^(wakeup|cachewalk): " "$1/run.out") "$1/rep.out"' _ "$L"
if command -v promtool >/dev/null; then
	check live_promtool promtool check metrics <"$L/run.prom"
fi
check live_openmetrics1_same_samples /usr/bin/python3 "$OM_SAME" "$L/run.prom" "$L/run.om"
# a plain run is not calibrated: no matrix plot, said once in the text (and again by report)
check live_run_no_matrix_said bash -c '[ "$(grep -c "^plots: no calibration-matrix plot: this run was not calibrated" "$1/run.out")" = 1 ] &&
	[ ! -e "$1/plots/calibration-matrix.png" ] && [ -s "$1/rplots/age-histogram.png" ]' _ "$L"
# the native trace of the live run, made by report from its file (as run would make it)
"$MT" report --perfetto "$L/r.pftrace" "$L/run.json" >/dev/null
check live_perfetto_native_counts python3 "$MT_ROOT/tests/integration/pftrace_counts.py" \
	"$PFPROTO" "$L/r.pftrace" "$L/run.json"
check live_perfetto_counts python3 - "$L/trace.json" "$L/run.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
ev = t["traceEvents"]
assert len([e for e in ev if e["ph"] == "X" and e["pid"] != 1 << 22]) == len(d["units"]) > 0
assert len([e for e in ev if e["ph"] == "i" and e["pid"] != 1 << 22]) == len(d["migrations"])
PY
