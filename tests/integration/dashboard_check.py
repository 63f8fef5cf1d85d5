#!/usr/bin/env python3
"""Checks contrib/grafana/migtrace-dashboard.json against what migtrace really exports.

usage: dashboard_check.py [--doc FILE.md] DASHBOARD.json RULES.yml PROM [PROM...]

- the dashboard is valid JSON, schemaVersion >= 36, with a datasource variable
  ("datasource", of prometheus: resolved when the file is provisioned as when it is imported,
  which an __inputs entry is not) that every panel, query and query variable uses; panel ids unique, each panel inside the 24-column
  grid, each query with an expression and a refId of its own, every $variable defined;
- every metric name in a PromQL expression (the dashboard's, and the rules file's own) that
  starts with migtrace_ is in an exposition migtrace wrote (PROM: the text format files;
  a histogram's _bucket/_sum/_count are its family's), and every name with a colon that
  contains migtrace_ is a recording rule of RULES; --doc adds the queries of FILE.md's
  ```promql blocks (one a line, # comments), as docs/servers.md gives them.
Prints one line per problem and a summary; exits 1 on a problem.  No YAML module is needed:
the rules file is read line by line (record: and expr: keys, folded expr blocks).
"""
import json
import re
import sys

GRAFANA_VARS = {"__rate_interval", "__interval", "__range", "__interval_ms", "__range_s",
                "__range_ms", "__name"}
SUFFIXES = ("_bucket", "_sum", "_count")


def prom_names(paths):
    """Metric names and families (name -> type) of text-format expositions."""
    names, types = set(), {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = re.match(r"# TYPE (\S+) (\S+)", line)
                if m:
                    types[m.group(1)] = m.group(2)
                elif line.strip() and not line.startswith("#"):
                    names.add(re.match(r"[A-Za-z_:][A-Za-z0-9_:]*", line).group(0))
    return names, types


def rules_file(path):
    """(records, [expr]) of a Prometheus rules file, read without a YAML parser."""
    records, exprs = set(), []
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*-?\s*record:\s*(\S+)", line)
        if m:
            records.add(m.group(1).strip("'\""))
        m = re.match(r"(\s*-?\s*)expr:\s*(.*)$", line)
        if m:
            indent, rest = len(m.group(1)), m.group(2).strip()
            if rest in (">", "|", ">-", "|-"):
                block = []
                while i + 1 < len(lines) and (not lines[i + 1].strip() or
                                              len(lines[i + 1]) - len(lines[i + 1].lstrip()) > indent):
                    i += 1
                    block.append(lines[i].strip())
                rest = " ".join(block)
            exprs.append(rest.strip("'"))
        i += 1
    return records, exprs


def doc_queries(path):
    """The queries of a markdown file's ```promql blocks: one a line, # lines are comments."""
    out, inside = [], False
    for line in open(path).read().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```promql"
            continue
        if inside and line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    return out


def metric_tokens(expr):
    """Identifiers of a PromQL expression outside string literals that name migtrace series."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    return {t for t in re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", bare) if "migtrace_" in t}


def main():
    args, doc = sys.argv[1:], None
    if args[:1] == ["--doc"] and len(args) > 1:
        doc, args = args[1], args[2:]
    if len(args) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    dash_path, rules_path, proms = args[0], args[1], args[2:]
    problems = []
    try:
        d = json.load(open(dash_path))
    except (OSError, ValueError) as e:
        print(f"{dash_path}: not valid JSON: {e}")
        return 1
    names, types = prom_names(proms)
    records, rule_exprs = rules_file(rules_path)

    if not isinstance(d.get("schemaVersion"), int) or d["schemaVersion"] < 36:
        problems.append(f"schemaVersion {d.get('schemaVersion')!r}: 36 or later wanted")
    if not any(v.get("name") == "datasource" and v.get("type") == "datasource" and
               v.get("query") == "prometheus" for v in d.get("templating", {}).get("list", [])):
        problems.append("no datasource variable 'datasource' of prometheus")
    if d.get("__inputs"):
        problems.append("__inputs: resolved by Grafana's import alone, not by provisioning")

    def ds_ok(ds):
        return isinstance(ds, dict) and ds.get("uid") == "${datasource}"

    variables = {v.get("name") for v in d.get("templating", {}).get("list", [])}
    queries = []		# (where, expr)
    for v in d.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else q or ""
        if v.get("type") == "query":
            if not ds_ok(v.get("datasource")):
                problems.append(f"variable {v.get('name')}: datasource is not ${{datasource}}")
            queries.append((f"variable {v.get('name')}", q))

    def walk(panels):
        for p in panels:
            yield p
            yield from walk(p.get("panels", []))

    ids, npanels = set(), 0
    for p in walk(d.get("panels", [])):
        where = f"panel {p.get('id')} '{p.get('title')}'"
        if p.get("id") in ids:
            problems.append(f"{where}: id used twice")
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "xywh") or g["x"] + g["w"] > 24:
            problems.append(f"{where}: gridPos {g} is not inside the 24-column grid")
        if p.get("type") == "row":
            continue
        npanels += 1
        if not ds_ok(p.get("datasource")):
            problems.append(f"{where}: datasource is not ${{datasource}}")
        targets = p.get("targets", [])
        if not targets:
            problems.append(f"{where}: no query")
        refs = [t.get("refId") for t in targets]
        if len(set(refs)) != len(refs) or None in refs:
            problems.append(f"{where}: refIds {refs} are not distinct")
        for t in targets:
            if not t.get("expr"):
                problems.append(f"{where} {t.get('refId')}: no expr")
            if not ds_ok(t.get("datasource")):
                problems.append(f"{where} {t.get('refId')}: datasource is not ${{datasource}}")
            queries.append((f"{where} {t.get('refId')}", t.get("expr", "")))

    used = set()
    for where, expr in queries:
        for v in re.findall(r"\$\{?(\w+)", expr):
            if v not in variables and v not in GRAFANA_VARS:
                problems.append(f"{where}: ${v} is no variable of the dashboard")
    extra = [(f"rule expr {e!r}", e) for e in rule_exprs]
    if doc:
        extra += [(f"{doc}: {q!r}", q) for q in doc_queries(doc)]
    for where, expr in queries + extra:
        for t in sorted(metric_tokens(expr)):
            used.add(t)
            if ":" in t:
                if t not in records:
                    problems.append(f"{where}: {t} is no recording rule of {rules_path}")
                continue
            base = next((t[:-len(s)] for s in SUFFIXES if t.endswith(s)), None)
            if t in names or t in types or (base and types.get(base) in ("histogram", "summary")):
                continue
            problems.append(f"{where}: {t} is in no exposition migtrace wrote ({', '.join(proms)})")

    for p in problems:
        print(p)
    print(f"dashboard: {npanels} panels, {len(queries)} queries; {len(used)} migtrace names "
          f"(dashboard, rules{', ' + doc if doc else ''}) against {len(types)} exported families and {len(records)} "
          f"recording rules: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
