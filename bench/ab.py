#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ab.py: two or more builds of migtrace compared per event, bracketed, side by side.

    sudo python3 bench/ab.py [--reps N] BUILD... -- WORKLOAD [ARGS]

Each BUILD is a migtrace binary (a variant built elsewhere, e.g. in a git worktree with
`make CLANG="clang -DAB=1" migtrace`), or one of the harness's own configurations
(bpf-empty, bpftrace-count, migtrace-other: the latter runs ./migtrace).  Every repetition
runs the bracket alone and then each build, in an order rotated every time, each build
between the two halves of the bracket on sched_switch and sched_migrate_task exactly as
`make bench`'s fourth pass does (bench.py, run_bracketed).  Printed per build: the median
and min over the repetitions of its ns per switch and per migration, minus the bracket of
the same repetition.  The figures are differences measured in one run: compare them with
each other, not with another run's.
"""
import argparse
import os
import shutil
import signal
import statistics
import sys
import tempfile

import bench

OWN_CONFIGS = ("bpf-empty", "bpftrace-count", "bpftrace-same", "migtrace-other")


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: ab.py [--reps N] BUILD... -- WORKLOAD [ARGS]")
    cut = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5, help="repetitions (default 5)")
    ap.add_argument("builds", nargs="+", help="migtrace binaries or " + ", ".join(OWN_CONFIGS))
    args = ap.parse_args(argv[:cut])
    workload = argv[cut + 1:]
    if not workload or args.reps < 1:
        sys.exit("ab.py: a workload after --, and --reps of at least 1")
    for b in args.builds:
        if b not in OWN_CONFIGS and not os.access(b, os.X_OK):
            sys.exit("ab.py: %s is neither an executable nor one of %s" % (b, ", ".join(OWN_CONFIGS)))
    if os.geteuid() != 0:
        sys.exit("ab.py: loading BPF programs needs root")
    bench.WORKLOADS["ab"] = {"cmd": workload, "figure": r"(?:Time:|Total time:)\s+([\d.]+)",
                             "unit": "s"}
    configs = ["bracket"] + args.builds
    runs = {c: [] for c in configs}
    own_migtrace = bench.MIGTRACE	# what migtrace-other runs
    # The run files and the FIFO each run is held on: removed on every way out, a signal's
    # included (SIGTERM and SIGHUP end it as Ctrl-C does, through the finally).
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda n, _: sys.exit(128 + n))
    tmp = tempfile.mkdtemp(prefix="migtrace-ab.")
    try:
        for rep in range(args.reps):
            for c in bench.rotated(configs, rep):
                if c == "bracket" or c in OWN_CONFIGS:
                    bench.MIGTRACE = own_migtrace
                    runs[c].append(bench.run_bracketed(c, "ab", tmp))
                else:
                    bench.MIGTRACE = os.path.abspath(c)
                    runs[c].append(bench.run_bracketed("migtrace", "ab", tmp))
            print("ab: rep %d/%d done" % (rep + 1, args.reps), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = runs["bracket"]
    print("%-40s %12s %12s %12s %12s" % ("build (minus the bracket)", "ns/sw med", "ns/sw min",
                                          "ns/mig med", "ns/mig min"))
    for c in args.builds:
        row = []
        for key in ("br_ns_per_switch", "br_ns_per_migrate"):
            d = [r[key] - b[key] for r, b in zip(runs[c], base)
                 if r.get(key) is not None and b.get(key) is not None]
            row += [statistics.median(d), min(d)] if d else [float("nan")] * 2
        print("%-40s %12.1f %12.1f %12.1f %12.1f" % ((c,) + tuple(row)))


if __name__ == "__main__":
    try:
        main()
    except bench.BenchError as e:
        sys.exit("ab.py: %s" % e)
