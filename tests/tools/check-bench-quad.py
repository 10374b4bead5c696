#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks bench/measure/lanes.py's quad, which the compile-time measurements use: two
chains of processes at once, one running the command without the plugin and
then the one with it, the other the other way round, every process on the
calling thread's CPU (the timing CPU outside the lanes); each returned pair
is a run without and a run with the plugin that ran at the same time, with
each process's own CPU time. Then run_lanes, which runs the compile-time
jobs: one lane per CPU, at the same time, each job's processes (a quad's
and run_pinned's too) on its lane's CPU only, jobs bound to a lane in that
lane, every job's result returned, and after a failing job no job started
in any lane and no further quad of a running job. Probes stand
in for opt: each burns a set amount of CPU time and records its CPUs and
when it ran.

  check-bench-quad.py WORK_DIR
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from measure import common, lanes  # noqa: E402

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


def probe(seconds):
    """A probe's run, as a lane's job runs a command (common.run); returns
    what the probe recorded."""
    p = common.run([sys.executable, "-c", PROBE, str(seconds), "1"])
    return json.loads(p.stdout)


def pinned_probe(work, name, seconds):
    """A probe's run by run_pinned, as the own-time and -time-passes jobs
    run theirs; returns what the probe recorded."""
    text, _ = lanes.run_pinned([sys.executable, "-c", PROBE, str(seconds), "1"],
                             dict(os.environ), name, os.path.join(work, name + ".log"))
    return json.loads(text)


def check_lanes(work, commands, need):
    """run_lanes (see the module's comment)."""
    cpus = lanes.lane_cpus()
    last = len(cpus) - 1
    need(cpus[0] == lanes.TIMING_CPU and sorted(cpus) == sorted(os.sched_getaffinity(0)),
         "lanes on CPUs %s: the timing CPU's first, one per CPU" % cpus)
    # Unbound probes, and probes bound to the first and to the last lane
    # (the same lane on a machine with one CPU), longer than the unbound
    # ones so that the lanes take them first.
    jobs = [lanes.Job("probe %d" % i, 1 + i % 3, lambda: probe(0.3)) for i in range(4)]
    jobs += [lanes.Job("bound %d to %d" % (i, lane), 5, lambda: probe(0.2), lane=lane)
             for i in range(3) for lane in (0, last)]
    # A quad and a run_pinned inside a lane run on the lane's CPU.
    jobs.append(lanes.Job("quad", 2, lambda: lanes.quad(commands, "probe",
                                                    os.path.join(work, "lane-quad")), lane=last))
    jobs.append(lanes.Job("pinned", 2, lambda: pinned_probe(work, "lane-pinned", 0.2), lane=last))
    done, ran = lanes.run_lanes(jobs)
    need(sorted(done) == sorted(j.name for j in jobs),
         "run_lanes returned %s, not every job's result" % sorted(done))
    need([l["cpu"] for l in ran] == cpus, "lanes on CPUs %s, not %s"
         % ([l["cpu"] for l in ran], cpus))
    ran_in = {name: l["cpu"] for l in ran for name, _ in l["jobs"]}
    need(sorted(ran_in) == sorted(done), "the lanes list %s, not every job" % sorted(ran_in))
    for j in jobs:
        if j.lane is not None:
            need(ran_in.get(j.name) == cpus[j.lane], "%s ran in the lane of CPU %s, not %d's"
                 % (j.name, ran_in.get(j.name), cpus[j.lane]))
        r = done.get(j.name)
        if isinstance(r, dict):  # a probe's record
            need(r["cpus"] == [ran_in.get(j.name)], "%s ran on CPUs %s, its lane's is %s"
                 % (j.name, r["cpus"], ran_in.get(j.name)))
    for name in ("base", "plugin"):
        for chain in (0, 1):
            with open(os.path.join(work, "lane-quad.%s.%d.log" % (name, chain))) as f:
                r = json.loads(f.read())
            need(r["cpus"] == [cpus[last]], "the lane's quad ran %s of chain %d on CPUs %s, "
                 "its lane's is %d" % (name, chain, r["cpus"], cpus[last]))
    if len(cpus) > 1:
        probes = [r for n, r in done.items() if isinstance(r, dict)]
        need(any(a["cpus"] != b["cpus"] and min(a["end"], b["end"]) > max(a["start"], b["start"])
                 for a in probes for b in probes),
             "no two probes in different lanes ran at the same time")

    # A failing job stops the lanes: nothing starts after it in any lane,
    # and a job of several quads stops between them.
    started, quads = [], []

    def later(i):
        started.append(i)
        return probe(0.1)

    def one_quad(flip):
        quads.append(flip)
        return lanes.quad(commands, "probe", os.path.join(work, "stopped"), flip)
    def fails():
        return lanes.Job("fails", 30, lambda: common.run(
            [sys.executable, "-c", "print('lane probe says no'); raise SystemExit(4)"]), lane=0)
    # The other lane is inside a job when the first fails: it starts no
    # other ...
    stopped = [fails(), lanes.Job("slow", 20, lambda: probe(1.5), lane=last)]
    stopped += [lanes.Job("later %d" % i, 1, lambda i=i: later(i), lane=lane)
                for i, lane in enumerate((0, last, last))]
    try:
        lanes.run_lanes(stopped)
        need(False, "a failing job did not stop the lanes")
    except SystemExit as e:
        need(str(e).startswith("bench: fails: command failed (exit 4)"),
             "a failing job's exit says: %s" % e)
    need(not started, "jobs %s started after a job failed" % started)
    # ... and a job of several quads there stops after the one it is in.
    try:
        lanes.run_lanes([fails(), lanes.Job("quads", 20, lambda: lanes.pairs_of(6, one_quad),
                                        lane=last)])
        need(False, "a failing job did not stop the lanes")
    except SystemExit as e:
        need(str(e).startswith("bench: fails: command failed (exit 4)"),
             "a failing job's exit says: %s" % e)
    need(len(quads) < 3, "a job of 3 quads ran all of them after another job failed")


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
    stem = os.path.join(work, "probe")
    flipped = lanes.quad(commands, "probe", stem, flip=True)
    want = [{"base": 1, "plugin": 0}, {"base": 0, "plugin": 1}]
    got = chains_of(flipped)
    need(got == want, "flipped quad: pairs from chains %s, not %s" % (got, want))

    pairs = lanes.quad(commands, "probe", stem)
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
        need(r["cpus"] == [lanes.TIMING_CPU], "%s of chain %d ran on CPUs %s, not only CPU %d"
             % (name, chain, r["cpus"], lanes.TIMING_CPU))
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
        lanes.quad(failing, "failing", os.path.join(work, "failing"))
        errors.append("a failing command did not stop the quad")
    except SystemExit as e:
        need("probe says no" in str(e) and "failing (base) failed" in str(e),
             "a failing command's exit says: %s" % e)

    # A command that cannot start stops it too, saying which.
    def missing(chain):
        return {"base": (["/nonexistent/alignguard-probe"], dict(os.environ)),
                "plugin": ([sys.executable, "-c", "pass"], dict(os.environ))}
    try:
        lanes.quad(missing, "missing", os.path.join(work, "missing"))
        errors.append("a command that does not exist did not stop the quad")
    except SystemExit as e:
        need("/nonexistent/alignguard-probe" in str(e), "a missing command's exit says: %s" % e)

    check_lanes(work, commands, need)

    for e in errors:
        print("check-bench-quad: " + e)
    if errors:
        return 1
    print("check-bench-quad: ok (pairs: %s)" % ", ".join(
        "%.2f / %.2f s" % (p["base"][0], p["plugin"][0]) for p in pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
