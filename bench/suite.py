#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard's whole benchmark (issue 13): runs bench/run.py once per LLVM
major and kernel target, each writing bench/results/<run>/measurements.json,
writes bench/results/suite.json (the runs, their minutes, the command, the
machine's load), then renders bench/RESULTS.md and
bench/results/<run>/overhead.png with bench/report.py, from the JSON alone.

  scripts/bench.sh [--quick] [--llvm N]      (the entry point)
  bench/suite.py [--quick] [--llvm N ...] [--build-root DIR]

Per major N (default 14 and 22), with build-N's plugin and runtime:
  - x86-64 (SSE2, the default target): every size and repetition, the
    compile-time modules (1k, 4k, 16k kernels; TVM-shaped 300 and 1200
    functions) and the third-party translation units;
  - x86-64-v3 (AVX2): `--reduced` (the quick sizes and repetitions), no
    compile time (it does not depend on the kernels' target);
  - x86-64-v4 (AVX-512, with -mprefer-vector-width=512: zmm vectors),
    where the CPU has it: `--reduced --native`.
    valgrind cannot execute AVX-512 code, so there are no instruction
    counts: the hot loops, what misaligned input does, and the timing
    driver's verification and time ratios.
"""
import argparse
import datetime
import json
import os
import resource
import shutil
import subprocess
import sys
import time

import report  # bench/report.py, beside this file
from measure.common import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = time.time()
LOAD_START = os.getloadavg()[2]


def configs(majors, avx512):
    out = []
    for n in majors:
        out.append(dict(name="llvm%d-x86-64" % n, llvm=n, cflags="", label="x86-64 (SSE2)",
                        args=[]))
        out.append(dict(name="llvm%d-x86-64-v3" % n, llvm=n, cflags="-march=x86-64-v3",
                        label="x86-64-v3 (AVX2)", args=["--reduced", "--skip-compile"]))
        if avx512:
            # 512-bit vectors: for x86-64-v4 clang tunes for 256-bit ones
            # (AVX-512VL on ymm registers), nearly the AVX2 run's code.
            out.append(dict(name="llvm%d-x86-64-v4" % n, llvm=n,
                            cflags="-march=x86-64-v4 -mprefer-vector-width=512",
                            label="x86-64-v4 (AVX-512, 512-bit vectors)",
                            args=["--reduced", "--native"]))
    return out


def log(msg):
    print("[suite %5.0fs] %s" % (time.time() - START, msg), flush=True)


def snapshot(build_root, n):
    """Copies build-N's plugin and runtime once per major, so that both of a
    major's runs measure the same plugin even if build-N is rebuilt while
    the suite runs. Returns the copy's root (holding build-N)."""
    src = os.path.join(build_root, "build-%d" % n)
    root = os.path.join(ROOT, "build-bench", "snapshot")
    dst = os.path.join(root, "build-%d" % n)
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(os.path.join(dst, "runtime"))
    shutil.copy2(os.path.join(src, "AlignGuard.so"), dst)
    shutil.copy2(os.path.join(src, "runtime", "libalignguard_rt.a"), os.path.join(dst, "runtime"))
    log("LLVM %d: plugin and runtime copied from %s" % (n, src))
    return root


def run_config(c, build_root, quick):
    """One run of bench/run.py; returns its entry in suite.json."""
    work = os.path.join(ROOT, "build-bench", c["name"])
    out = os.path.join(ROOT, "bench", "results", c["name"])
    cmd = [sys.executable, os.path.join(ROOT, "bench", "run.py"), "--llvm", str(c["llvm"]),
           "--build-dir", os.path.join(build_root, "build-%d" % c["llvm"]),
           "--work-dir", work, "--out-dir", out, "--no-report"] + c["args"]
    if c["cflags"]:
        cmd += ["--cflags=" + c["cflags"]]
    if quick:
        cmd = [x for x in cmd if x != "--reduced"] + ["--quick"]
    log("%s: %s" % (c["name"], " ".join(os.path.relpath(x, ROOT) if x.startswith(ROOT) else x
                                         for x in cmd[1:])))
    for stale in ("RESULTS.md", "overhead.png", "measurements.json"):
        if os.path.exists(os.path.join(out, stale)):
            os.remove(os.path.join(out, stale))
    t0 = time.time()
    p = subprocess.run(cmd)
    if p.returncode != 0:
        sys.exit("suite: %s failed (exit %d)" % (c["name"], p.returncode))
    minutes = (time.time() - t0) / 60
    log("%s: %.1f minutes" % (c["name"], minutes))
    return dict(name=c["name"], llvm=c["llvm"], label=c["label"], cflags=c["cflags"],
                minutes=minutes)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="every run with run.py --quick")
    ap.add_argument("--llvm", type=int, action="append", help="an LLVM major (repeatable; default 14 and 22)")
    ap.add_argument("--build-root", default=ROOT, help="where build-N are (default: the checkout)")
    ap.add_argument("--command", default="scripts/bench.sh", help="what RESULTS.md says ran it")
    args = ap.parse_args()
    majors = args.llvm or [14, 22]
    roots = {n: snapshot(os.path.abspath(args.build_root), n) for n in majors}
    # machine(): whether the CPU has AVX-512 (a native run).
    runs = [run_config(c, roots[c["llvm"]], args.quick)
            for c in configs(majors, "avx512f" in machine()["flags"].split())]
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    results = os.path.join(ROOT, "bench", "results")
    suite = dict(command=args.command, quick=args.quick, runs=runs,
                 date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 elapsed_min=(time.time() - START) / 60,
                 cpu_min=(ru.ru_utime + ru.ru_stime) / 60,
                 load=[LOAD_START, os.getloadavg()[2]])
    with open(os.path.join(results, "suite.json"), "w") as f:
        json.dump(suite, f, indent=1)
    log("measured in %.1f minutes; wrote bench/results/suite.json" % suite["elapsed_min"])
    _, measured = report.render_suite(results, os.path.join(ROOT, "bench", "RESULTS.md"))
    report.print_targets(measured)
    log("wrote bench/RESULTS.md and bench/results/*/overhead.png")


if __name__ == "__main__":
    main()
