#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks bench/run.py's quad, which the compile-time measurements use: two
chains of processes at once, one running the command without the plugin and
then the one with it, the other the other way round, every process on the
timing CPU; each returned pair is a run without and a run with the plugin
that ran at the same time, with each process's own CPU time. Probes stand in
for opt: each burns a set amount of CPU time and records its CPUs and when
it ran.

  check-bench-quad.py WORK_DIR
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import run  # noqa: E402

PROBE = """import json, os, sys, time
start = time.time()
hold = bytearray(int(sys.argv[2]) << 20)  # touched: resident
for i in range(0, len(hold), 4096):
    hold[i] = 1
cpu = time.process_time()
while time.process_time() - cpu < float(sys.argv[1]):
    pass
print(json.dumps(dict(cpus=sorted(os.sched_getaffinity(0)), start=start, end=time.time())))
"""
CPU_SECONDS = {"base": 0.3, "plugin": 0.5}
# A configuration's run holds more memory in one chain than in the other,
# so that the peak memory in a returned pair says which runs it pairs;
# each chain holds the same in all (the chains stay alike and end together).
MIB = {("base", 0): 8, ("plugin", 0): 48, ("base", 1): 48, ("plugin", 1): 8}


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    errors = []

    def need(cond, what):
        if not cond:
            errors.append(what)

    def commands(chain):
        return {name: ([sys.executable, "-c", PROBE, str(CPU_SECONDS[name]),
                        str(MIB[name, chain])], dict(os.environ))
                for name in ("base", "plugin")}

    def chains_of(pairs):
        """Per pair, {configuration: the chain its run was in}: of a
        configuration's two runs, the one with the larger peak is the run of
        the chain that held more for it."""
        out = [{}, {}]
        for name in ("base", "plugin"):
            big = max((0, 1), key=lambda c: MIB[name, c])
            larger = max((0, 1), key=lambda i: pairs[i][name][1])
            for i in (0, 1):
                out[i][name] = big if i == larger else 1 - big
        return out

    # flip: chain 0 runs the plugin first; the pairs are still the runs that
    # ran at the same time (the first of each chain, then the second).
    flipped = run.quad(commands, "probe", work, flip=True)
    want = [{"base": 1, "plugin": 0}, {"base": 0, "plugin": 1}]
    got = chains_of(flipped)
    need(got == want, "flipped quad: pairs from chains %s, not %s" % (got, want))

    pairs = run.quad(commands, "probe", work)
    want = [{"base": 0, "plugin": 1}, {"base": 1, "plugin": 0}]
    got = chains_of(pairs)
    need(got == want, "quad: pairs from chains %s, not %s (each pair must be the runs that "
         "ran at the same time)" % (got, want))
    need(len(pairs) == 2, "quad gave %d pairs, not 2" % len(pairs))
    for i, pair in enumerate(pairs):
        for name, (cpu, rss) in sorted(pair.items()):
            # The child's own CPU time, not the chain's or the suite's.
            need(CPU_SECONDS[name] * 0.9 <= cpu <= CPU_SECONDS[name] * 1.5 + 0.5,
                 "pair %d: %s took %.2f CPU seconds, the probe burns %.1f"
                 % (i, name, cpu, CPU_SECONDS[name]))
            need(rss > 0, "pair %d: %s has no peak memory" % (i, name))
    runs = {}
    for name in ("base", "plugin"):
        for chain in (0, 1):
            with open(os.path.join(work, "probe.%s.%d.log" % (name, chain))) as f:
                runs[name, chain] = json.loads(f.read())
    for (name, chain), r in sorted(runs.items()):
        need(r["cpus"] == [run.TIMING_CPU], "%s of chain %d ran on CPUs %s, not only CPU %d"
             % (name, chain, r["cpus"], run.TIMING_CPU))
    # The chains' orders: 0 runs base first, 1 the plugin first.
    need(runs["base", 0]["end"] <= runs["plugin", 0]["start"] + 0.05,
         "chain 0 did not run base before the plugin")
    need(runs["plugin", 1]["end"] <= runs["base", 1]["start"] + 0.05,
         "chain 1 did not run the plugin before base")

    def overlap(a, b):
        """The share of the shorter run that the two ran at the same time."""
        both = min(a["end"], b["end"]) - max(a["start"], b["start"])
        return max(0.0, both) / min(a["end"] - a["start"], b["end"] - b["start"])
    # A pair's two runs share the CPU: the first of each chain, then the second.
    for i, (base, plugin) in enumerate(((("base", 0), ("plugin", 1)),
                                        (("base", 1), ("plugin", 0)))):
        share = overlap(runs[base], runs[plugin])
        need(share >= 0.5, "pair %d: its runs were at the same time for %.0f%% of the shorter "
             "one, not most of it" % (i, 100 * share))

    # A command that fails stops the measurement with its output.
    def failing(chain):
        return {"base": ([sys.executable, "-c", "print('probe says no'); raise SystemExit(3)"],
                         dict(os.environ)),
                "plugin": ([sys.executable, "-c", "pass"], dict(os.environ))}
    try:
        run.quad(failing, "failing", work)
        errors.append("a failing command did not stop the quad")
    except SystemExit as e:
        need("probe says no" in str(e) and "failing (base) failed" in str(e),
             "a failing command's exit says: %s" % e)

    # A command that cannot start stops it too, saying which.
    def missing(chain):
        return {"base": (["/nonexistent/alignguard-probe"], dict(os.environ)),
                "plugin": ([sys.executable, "-c", "pass"], dict(os.environ))}
    try:
        run.quad(missing, "missing", work)
        errors.append("a command that does not exist did not stop the quad")
    except SystemExit as e:
        need("/nonexistent/alignguard-probe" in str(e), "a missing command's exit says: %s" % e)

    for e in errors:
        print("check-bench-quad: " + e)
    if errors:
        return 1
    print("check-bench-quad: ok (pairs: %s)" % ", ".join(
        "%.2f / %.2f s" % (p["base"][0], p["plugin"][0]) for p in pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
