#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks what `bench/run.py --native` wrote (the run for kernels valgrind
cannot execute, x86-64-v4): every kernel's hot loop and times, what
misaligned input does, the targets a native run measures (bench/report.py's
evaluation of its measurements.json), and no instruction counts.

  check-bench-native.py OUT_DIR/RESULTS.md OUT_DIR/measurements.json
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench"))
import report  # noqa: E402


def main():
    md_path, json_path = sys.argv[1:3]
    with open(md_path) as f:
        md = f.read()
    data = report.load_run(json_path)  # the measurements, and the targets from them
    errors = []

    def need(cond, what):
        if not cond:
            errors.append(what)

    need(data.get("native") is True, "measurements.json: native is not true")
    need(not data.get("instructions"), "measurements.json: a native run holds instruction counts")
    need("compile" not in data, "measurements.json: a native run measured compile time")
    kernels = sorted(data["sizes"])
    need(len(kernels) >= 5, "measurements.json: %d kernels" % len(kernels))
    targets = {t["target"]: t for t in data["targets"]}
    need(any(t.startswith("... and the hot loop") for t in targets),
         "no hot-loop target (suite.py's summary needs it)")
    need("Misaligned input, `fallback`: correct results" in targets, "no fallback-correct target")
    for key, variants in data["verify"].items():
        for v, verdict in variants.items():
            need(verdict == "ok", "verification of %s %s: %s" % (key, v, verdict))
    for k in kernels:
        need("### %s (" % k in md, "RESULTS.md: no time table for %s" % k)
        need(all("%s:%d" % (k, s) in data["times"] for s in data["sizes"][k]),
             "measurements.json: %s is not timed at every size" % k)
    need(md.count("Hot loop of `") == len(kernels), "RESULTS.md: not one hot-loop line per kernel")
    need("**Native run** (`--native`)" in md, "RESULTS.md does not say it is a native run")
    need("## Misaligned input: what each build does" in md, "RESULTS.md: no misaligned-input table")
    need("overhead.png" not in md, "RESULTS.md names a plot a native run does not draw")
    need("callgrind" not in md, "RESULTS.md claims callgrind counts")
    for e in errors:
        print("check-bench-native: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
