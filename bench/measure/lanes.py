# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where and how timed processes run: pinned to one CPU, in quads (two
pairs of runs without and with the plugin sharing one CPU), and in lanes,
one per CPU (bench/README.md, "Lanes"). tests/tools/check-bench-quad.py
checks it with probes."""
import os
import re
import subprocess
import sys
import threading
import time
import traceback

from measure.common import log


# Every timed process runs on one CPU (outside the lanes, this one: the
# highest the suite may use). On a 2-vCPU VM the scheduler put consecutive
# processes on alternating CPUs, which ran the same command at different
# speeds for minutes at a time (bench/README.md, "Compile time").
TIMING_CPU = max(os.sched_getaffinity(0))


def on_timing_cpu():
    """For Popen's preexec_fn: the child runs on TIMING_CPU only."""
    os.sched_setaffinity(0, {TIMING_CPU})


# The thread-local state of run_lanes: a lane thread's CPU (LANE.cpu).
LANE = threading.local()


def lane_cpu():
    """The CPU the calling thread's processes run on: its lane's (run_lanes),
    TIMING_CPU outside the lanes."""
    return getattr(LANE, "cpu", TIMING_CPU)


def run_logged(cmd, env, out_path, preexec_fn=None):
    """Runs cmd and waits for it, its stdout and stderr to out_path.
    Returns its wait status, that text and the child's own resource usage
    (CPU time, peak memory)."""
    with open(out_path, "w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                             preexec_fn=preexec_fn)
        _, status, usage = os.wait4(p.pid, 0)  # the child's own CPU time
        p.returncode = status
        out.seek(0)
        return status, out.read(), usage


def run_pinned(cmd, env, what, out_path):
    """Runs cmd on the calling thread's CPU (lane_cpu) and waits for it;
    its stdout and stderr go to out_path. Returns that text and the child's
    own resource usage (CPU time, peak memory); exits when cmd fails."""
    # A lane's thread is pinned already, and its children inherit that
    # (preexec_fn is not safe in a thread).
    in_lane = hasattr(LANE, "cpu")
    status, text, usage = run_logged(cmd, env, out_path,
                                     preexec_fn=None if in_lane else on_timing_cpu)
    if status != 0:
        sys.exit("bench: %s failed:\n%s" % (what, text[-2000:]))
    return text, usage


def run_threads(target, count, failed):
    """Runs target(i) for every i below count, each in a thread, all at
    once, and waits for them; exits with the first failure they appended
    to `failed`."""
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if failed:
        sys.exit("bench: " + failed[0])


def run_chains(chains):
    """chains: lists of (command, environment, what, log path). Runs the
    lists at once, the commands of each one after the other, every process
    on the calling thread's CPU (lane_cpu; each list's thread pins itself,
    and its children inherit that), each process's stdout and stderr to its
    log. Returns each list's [(CPU seconds, peak resident KiB)] (the child's
    own resource usage); exits when a command fails."""
    cpu = lane_cpu()
    results = [[] for _ in chains]
    failed = []
    start = threading.Barrier(len(chains))  # the first processes start together
    stop = threading.Event()  # a chain failed: the others start nothing more

    def chain(i):
        try:
            os.sched_setaffinity(0, {cpu})  # this thread, and what it starts
            start.wait()
            for cmd, env, what, log_path in chains[i]:
                if stop.is_set():
                    return
                # No preexec_fn in a thread: the thread's own pinning is
                # inherited.
                status, text, usage = run_logged(cmd, env, log_path)
                if status != 0:
                    failed.append("%s failed:\n%s" % (what, text[-2000:]))
                    stop.set()
                    return
                results[i].append((usage.ru_utime + usage.ru_stime, usage.ru_maxrss))
        except BaseException as e:  # e.g. a command that does not exist
            failed.append("%s: %s" % (" ".join(chains[i][len(results[i])][0][:1]), e))
            stop.set()
            start.abort()

    run_threads(chain, len(chains), failed)
    return results


def quad(commands, what, log_stem, flip=False):
    """Two pairs of runs without and with the plugin, each pair's two runs
    sharing one CPU (lane_cpu; COMPILE_RUNS says why): two chains at once, one
    running the command without the plugin and then the one with it, the
    other the other way round, so that both do the same work and every
    process shares the CPU all its life. commands(chain) -> {"base": (command,
    environment), "plugin": ...} for chain 0 and 1 (a command that writes a
    file writes another one per chain). flip: chain 0 runs the plugin first
    (callers alternate, so that neither configuration always has chain 0's
    place). Each process's output goes to LOG_STEM.CONFIG.CHAIN.log (a stem
    of its own per quad that may run at the same time as another, in the
    other lane). Returns the two pairs, [{"base": (CPU seconds, peak KiB),
    "plugin": ...}]: the first run of each chain, then the second of each."""
    orders = (("base", "plugin"), ("plugin", "base"))
    if flip:
        orders = orders[::-1]
    chains = []
    for i, names in enumerate(orders):
        cmds = commands(i)
        chains.append([(cmds[n][0], cmds[n][1], "%s (%s)" % (what, n),
                        "%s.%s.%d.log" % (log_stem, n, i))
                       for n in names])
    results = run_chains(chains)
    # The k-th pair: the k-th run of each chain, by the configuration it ran.
    return [{names[k]: results[i][k] for i, names in enumerate(orders)} for k in (0, 1)]


def lane_cpus():
    """The lanes' CPUs (run_lanes), lane 0 first: TIMING_CPU, then the
    others the suite may use."""
    return [TIMING_CPU] + sorted(os.sched_getaffinity(0) - {TIMING_CPU})


# Set when a lane's job failed: the other lanes start nothing more, and a
# job of several quads stops between them (pairs_of).
LANES_STOP = threading.Event()


class Job:
    """A piece of run_lanes' work: fn() run in a lane; estimate: its
    seconds, roughly (the longest start first); lane: the index of the
    lane it must run in (lane_cpus; a noise floor per CPU, the
    measurements compared across sizes), or None."""

    def __init__(self, name, estimate, fn, lane=None):
        self.name, self.estimate, self.fn, self.lane = name, estimate, fn, lane


def run_lanes(jobs):
    """Runs jobs in lanes, one per CPU the suite may use (TIMING_CPU's lane
    first): a lane is a thread pinned to its CPU, so that every process it
    starts runs there (a quad's two chains too), and it takes the
    longest job left that it may run whenever it is free. Each timed
    measurement is a pair (or a job's runs) on one CPU, so what the other
    lane runs meanwhile falls on both runs of a pair; callgrind's counts do
    not depend on it. Returns ({job name: fn's result}, [{cpu, jobs: [[name,
    seconds]]}] per lane). When a job fails, no lane starts another (and a
    job of several quads stops after the one it is in, pairs_of); once the
    jobs running then have ended, it exits with the first failure."""
    cpus = lane_cpus()
    left = sorted(jobs, key=lambda j: -j.estimate)
    lock = threading.Lock()
    results, lanes, failed = {}, [dict(cpu=c, jobs=[]) for c in cpus], []

    LANES_STOP.clear()

    def take(i):
        with lock:
            if LANES_STOP.is_set():
                return None
            for k, j in enumerate(left):
                if j.lane is None or j.lane % len(cpus) == i:
                    return left.pop(k)
        return None

    def lane(i):
        LANE.cpu = cpus[i]
        os.sched_setaffinity(0, {cpus[i]})  # this thread, and what it starts
        while True:
            j = take(i)
            if j is None:
                return
            began = time.time()
            try:
                results[j.name] = j.fn()
            except BaseException as e:
                why = (re.sub(r"^bench: ", "", str(e)) if isinstance(e, SystemExit)  # run()'s
                       else "\n" + traceback.format_exc())  # a bug: where
                with lock:
                    failed.append("%s: %s" % (j.name, why))
                    LANES_STOP.set()
                return
            seconds = time.time() - began
            lanes[i]["jobs"].append([j.name, round(seconds, 1)])
            log("  (CPU %d: %s, %.0fs)" % (cpus[i], j.name, seconds))

    run_threads(lane, len(cpus), failed)
    return results, lanes


def pairs_of(pairs, run_quad):
    """`pairs` pairs (even, at least 2), from pairs / 2 quads: run_quad(flip)
    gives a quad's two, flip alternating from quad to quad."""
    if pairs < 2 or pairs % 2:
        sys.exit("bench: %d pairs: quads give them two at a time" % pairs)
    out = []
    for q in range(pairs // 2):
        if LANES_STOP.is_set():
            sys.exit("bench: stopped: another lane's job failed")
        out += run_quad(q % 2 == 1)
    return out
