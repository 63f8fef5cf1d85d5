#!/usr/bin/env python3
"""pftrace_counts.py PROTO TRACE RUN.json: migtrace's native Perfetto trace (--perfetto
FILE.pftrace) decoded by protoc against PROTO (analysis/render/perfetto_trace.proto, the part
of Perfetto's format migtrace writes) holds the run's records: a thread track per thread, a
migration instant per migration record on its thread's track and one on its destination
CPU's, a slice per unit (a begin and an end), counter values, and no command-line argument.
Prints the counts; exit 1 with what differs."""
import json
import re
import subprocess
import sys

proto, trace, run = sys.argv[1:4]
text = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", proto.rsplit("/", 1)[0],
                       proto], stdin=open(trace, "rb"), capture_output=True, check=True,
                      text=True).stdout
d = json.load(open(run))
packets = text.count("\npacket {") + text.startswith("packet {")
got = {
    "threads": len(re.findall(r"^    thread \{", text, re.M)),
    "migrations": len(re.findall(r'^    categories: "migration"$', text, re.M)),
    "arrivals": len(re.findall(r'^    categories: "migration_in"$', text, re.M)),
    "slices": len(re.findall(r"^    type: TYPE_SLICE_BEGIN$", text, re.M)),
    "slice_ends": len(re.findall(r"^    type: TYPE_SLICE_END$", text, re.M)),
    "counters": len(re.findall(r"^    type: TYPE_COUNTER$", text, re.M)),
    "switches": len(re.findall(r"^      sched_switch \{$", text, re.M)),
    "wakings": len(re.findall(r"^      sched_waking \{$", text, re.M)),
}
want = {
    "threads": len({(m["pid"]) for m in d["migrations"]} | {u["pid"] for u in d["units"]}),
    "migrations": len(d["migrations"]),
    "arrivals": len(d["migrations"]),
    "slices": len(d["units"]),
    "slice_ends": len(d["units"]),
    "switches": len(d.get("switches", [])),
    "wakings": len(d.get("wakings", [])),
}
bad = ["%s: %d in the trace, %d in the run" % (k, got[k], v) for k, v in want.items() if got[k] != v]
if d["migrations"] and not got["counters"]:
    bad.append("no counter value")
# each migration a clean unit followed, on a thread with warm units, carries its refill: on
# the unit's slice and on the migration's two instants
warm = {u["pid"] for u in d["units"] if not u["migs_before"] and not u["switches_before"]
        and not u["migs_during"] and not u["switches_during"] and u["prev_end_ns"]}
refills = [u for u in d["units"] if u["migs_before"] and not u["migs_during"]
           and not u["switches_during"] and u["pid"] in warm]
got["refills"] = text.count('name: "refill_ns"')
if got["refills"] != 3 * len(refills):
    bad.append("refill_ns: %d annotations, %d expected (3 a migrated unit)"
               % (got["refills"], 3 * len(refills)))
# every migration's figures are there: its cause and CPUs, on its thread's track
for m in d["migrations"][:50]:
    if 'string_value: "%s"' % m["cause"] not in text:
        bad.append("cause %s missing" % m["cause"])
        break
# the switches: per CPU bundles in time order, a traced task on a side of each
traced = {m["pid"] for m in d["migrations"]} | {u["pid"] for u in d["units"]} | \
    {s["prev_pid"] for s in d.get("switches", []) if s["prev_tgid"] == d["meta"]["pid"]} | \
    {s["next_pid"] for s in d.get("switches", []) if s["next_tgid"] == d["meta"]["pid"]}
for bundle in re.findall(r"^  ftrace_events \{\n(.*?)^  \}$", text, re.M | re.S):
    stamps = [int(t) for t in re.findall(r"^      timestamp: (\d+)$", bundle, re.M)]
    if stamps != sorted(stamps):
        bad.append("a CPU's switches out of time order")
        break
    pairs = re.findall(r"prev_pid: (\d+)$.*?next_pid: (\d+)$", bundle, re.M | re.S)
    if any(int(p) not in traced and int(n) not in traced for p, n in pairs):
        bad.append("a switch with no traced task on either side")
        break
args = d["meta"]["command"].split()[1:]
if any(a in text for a in args if len(a) > 3):
    bad.append("the command line's arguments are in the trace")
print("%d packets: %s" % (packets, got))
if bad:
    sys.exit("; ".join(bad))
