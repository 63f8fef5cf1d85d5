#!/usr/bin/python3
"""om_same.py TEXT OM: migtrace's --openmetrics file OM is OpenMetrics 1.0 that an OpenMetrics
parser accepts (Debian's python3-prometheus-client, whose parser refused the text format's
exposition: "Clashing name: migtrace_migrations_total"), and it holds the samples of the
text-format file TEXT (--prometheus, or the textfile), read by that library's text parser:
the same names, labels and values, each family typed alike (a counter as a counter, a *_info
gauge as info), and it ends in "# EOF".  Prints what differs; exit 1 then."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as text_parse


def samples(families):
    out, types = {}, {}
    for f in families:
        types[f.name] = f.type
        for s in f.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out, types


def main():
    text_src, om_src = open(sys.argv[1]).read(), open(sys.argv[2]).read()
    problems = []
    if not om_src.endswith("# EOF\n"):
        problems.append("does not end in '# EOF'")
    try:
        om, om_types = samples(om_parse(om_src))
    except ValueError as e:
        sys.exit("%s: the OpenMetrics parser refused it: %s" % (sys.argv[2], e))
    text, text_types = samples(text_parse(text_src))
    if not text:
        problems.append("%s holds no sample" % sys.argv[1])
    for k in sorted(set(text) | set(om)):
        if k not in om:
            problems.append("only in the text format: %s%s" % k)
        elif k not in text:
            problems.append("only in OpenMetrics: %s%s" % k)
        elif text[k] != om[k]:
            problems.append("%s%s: %r in the text format, %r in OpenMetrics" % (k[0], k[1], text[k], om[k]))
    # the text parser names a counter's family with its _total (0.16 keeps the TYPE line's name)
    for name, t in text_types.items():
        want = {"counter": "counter", "histogram": "histogram", "gauge": "gauge"}.get(t, t)
        fam = name[:-6] if t == "counter" and name.endswith("_total") else name
        if t == "gauge" and name.endswith("_info"):
            fam, want = name[:-5], "info"
        if om_types.get(fam) != want:
            problems.append("family %s (%s in the text format) is %s in OpenMetrics" % (
                fam, t, om_types.get(fam)))
    if problems:
        print("\n".join(problems[:20]))
        sys.exit(1)
    print("%d samples of %d families the same" % (len(om), len(om_types)))


main()
