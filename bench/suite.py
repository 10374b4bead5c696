#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard's whole benchmark (issue 13): runs bench/run.py once per LLVM
major and kernel target, and writes bench/RESULTS.md, which opens with every
target met or missed (per major and target) and then holds each run's
detailed tables; the plots go to bench/results/<run>/overhead.png.

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = time.time()
LOAD_START = os.getloadavg()[2]
TARGET_LIMIT_MIN = 20


def cpu_has_avx512():
    with open("/proc/cpuinfo") as f:
        return any(line.startswith("flags") and "avx512f" in line.split() for line in f)


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
    # libalignguard_rt.a can be a linker script naming alignguard/libalignguard_rt.a.
    sub = os.path.join(src, "runtime", "alignguard")
    if os.path.isdir(sub):
        shutil.copytree(sub, os.path.join(dst, "runtime", "alignguard"))
    log("LLVM %d: plugin and runtime copied from %s" % (n, src))
    return root


def run_config(c, build_root, quick):
    work = os.path.join(ROOT, "build-bench", c["name"])
    out = os.path.join(ROOT, "bench", "results", c["name"])
    cmd = [sys.executable, os.path.join(ROOT, "bench", "run.py"), "--llvm", str(c["llvm"]),
           "--build-dir", os.path.join(build_root, "build-%d" % c["llvm"]),
           "--work-dir", work, "--out-dir", out] + c["args"]
    if c["cflags"]:
        cmd += ["--cflags=" + c["cflags"]]
    if quick:
        cmd = [x for x in cmd if x != "--reduced"] + ["--quick"]
    log("%s: %s" % (c["name"], " ".join(os.path.relpath(x, ROOT) if x.startswith(ROOT) else x
                                         for x in cmd[1:])))
    t0 = time.time()
    p = subprocess.run(cmd)
    if p.returncode != 0:
        sys.exit("suite: %s failed (exit %d)" % (c["name"], p.returncode))
    with open(os.path.join(work, "results.json")) as f:
        data = json.load(f)
    with open(os.path.join(out, "RESULTS.md")) as f:
        md = f.read()
    os.remove(os.path.join(out, "RESULTS.md"))  # inlined into bench/RESULTS.md
    data["minutes"] = (time.time() - t0) / 60
    log("%s: %.1f minutes" % (c["name"], data["minutes"]))
    return data, md


def demote(md, cfg):
    """A run's RESULTS.md as a section of bench/RESULTS.md: without its
    title and generated-by line, headings one level down, the plot's path
    from bench/."""
    lines = md.splitlines()
    out = []
    for line in lines:
        if line.startswith("# AlignGuard benchmark results") or line.startswith("Generated by"):
            continue
        if line.startswith("#"):
            line = "#" + line
        line = line.replace("](overhead.png)", "](results/%s/overhead.png)" % cfg)
        out.append(line)
    return "\n".join(out).strip("\n")


def yes(met):
    return "yes" if met else "**no**"


def write(path, runs, quick, command, elapsed):
    L = []
    a = L.append
    first = runs[0][1]
    m = first["machine"]
    a("# AlignGuard benchmark results")
    a("")
    a("Generated by `%s` on %s in %.1f minutes (wall clock, all runs); do not edit (the command "
      "rewrites this file and `results/*/overhead.png`)." % (
          command, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
          elapsed))
    a("")
    a("- Machine: %s, %d logical CPUs, %s memory; the CPU has %s. Every timed process ran on "
      "CPU %d alone (nothing else of the suite's running meanwhile), both runs of each "
      "compile-time pair on it; the machine is a shared VM, so times still carry some noise "
      "(each section gives its noise floor); instruction counts are exact." % (
          m["cpu"], m["cores"], m["memory"], m["flags"], m["timing_cpu"]))
    a("- Runs (each major's plugin and runtime copied once, at the start, to "
      "`build-bench/snapshot/`, and measured by both of its runs): " + "; ".join("`%s`: LLVM %d, kernels for %s%s, %.1f min" % (
        c["name"], c["llvm"], c["label"],
        ", quick" if d["quick"] else
        ", reduced sizes, no valgrind (no instruction counts), no compile time" if d.get("native") else
        ", reduced sizes, no compile time" if d.get("reduced") else
        ", every size, compile time and third-party TUs", d["minutes"]) for c, d, _ in runs) + ".")
    a("- x86-64-v4 (AVX-512): %s" % (
        "the CPU has it; valgrind (callgrind) cannot execute AVX-512 instructions, so its "
        "runs have no instruction counts (and no per-place or instruction targets): they show "
        "the hot loops, what misaligned input does, and the timing driver's verification and "
        "time ratios." if any(d.get("native") for _, d, _ in runs) else
        "not run: the CPU does not have it (and valgrind cannot execute it)."))
    a("")
    a("## Summary: targets met or missed")
    a("")
    a("Issue 13 (per LLVM major and kernel target; the reasons follow the table):")
    a("")
    a("| target | run | measured | met |")
    a("|---|---|---|---|")
    order = ["per-place", "stencil-rows", "hotloop", "compile5", "compile5-instr"]
    rows = {}
    for c, d, _ in runs:
        for tg in d["targets13"]:
            rows.setdefault(tg["key"], []).append((c, tg))
        loop = next(tg for tg in d["targets"] if tg["target"].startswith("... and the hot loop"))
        rows.setdefault("hotloop", []).append((c, dict(
            target="Every hot loop identical to plain's (abort, fallback), SSE2 and AVX2 builds "
                   "(and AVX-512 where the CPU has it)",
            measured=loop["measured"], met=loop["met"])))
    for key in order:
        for c, tg in rows.get(key, []):
            a("| %s | LLVM %d, %s | %s | %s |" % (tg["target"], c["llvm"], c["label"],
                                                  tg["measured"], yes(tg["met"])))
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru.ru_utime + ru.ru_stime) / 60
    load = (LOAD_START, os.getloadavg()[2])
    a("| `scripts/bench.sh` regenerates results and plots in under %d minutes | all runs | "
      "%.1f minutes wall%s; its processes' CPU time %.1f minutes; 15-minute load average "
      "%.1f at the start, %.1f at the end | %s |" % (
          TARGET_LIMIT_MIN, elapsed, " (quick run)" if quick else "", cpu, load[0], load[1],
          yes(elapsed < TARGET_LIMIT_MIN)))
    a("")
    a("Why the missed ones are missed (from each run's numbers; its section repeats them):")
    a("")
    any_why = False
    if elapsed >= TARGET_LIMIT_MIN:
        a("- Wall time: %.1f minutes, %.1f over the %d-minute budget. %s The runs' own times "
          "are in the `Runs:` line above." % (
              elapsed, elapsed - TARGET_LIMIT_MIN, TARGET_LIMIT_MIN,
              "The 2 cores were shared: a 15-minute load average of %.1f / %.1f (start / end) "
              "against the benchmark's 2 processes at most, so its processes got a fraction of "
              "the machine (%.1f minutes of CPU in %.1f minutes of wall time on 2 cores)." % (
                  load[0], load[1], cpu, elapsed) if max(load) > 2.5 else
              "The machine was not loaded: the budget needs fewer sizes or runs."))
        any_why = True
    for c, d, _ in runs:
        for line in d.get("why13", []):
            a("- LLVM %d, %s: %s" % (c["llvm"], c["label"], line))
            any_why = True
        for _, tg in [x for x in rows.get("hotloop", []) if x[0] is c and not x[1]["met"]]:
            a("- LLVM %d, %s: hot loop %s. Where the instructions are the same and only the "
              "aligned accesses differ, the alignment the promise gives plain's loop does not "
              "reach those accesses in the instrumented build (the run's hot-loop line below)."
              % (c["llvm"], c["label"], tg["measured"]))
            any_why = True
    if not any_why:
        a("- None: every issue-13 target is met.")
    a("")
    a("Third-party compile time (item 5; no target): whole `clang -O2 -c` CPU time and text "
      "size with the plugin (abort) against without:")
    a("")
    for c, d, _ in runs:
        tp = d.get("thirdparty")
        if tp:
            a("- LLVM %d: %s." % (c["llvm"], "; ".join(
                "%s %+.1f%% time, %+.1f%% text, %d checks" % (
                    n, x["cost"] if "cost" in x else 100 * (x["plugin"] - x["base"]) / x["base"],
                    100 * (x["text_plugin"] - x["text_base"]) / x["text_base"], x["checks"])
                for n, x in tp.items())))
    a("")
    a("Misaligned input with `fallback` (from 64 Ki elements up): against the aligned path, "
      "and against promise-free code on the same misaligned data (`recover-misaligned`), which is "
      "the limit (the unaligned copy that fallback runs is promise-free code):")
    a("")
    for c, d, _ in runs:
        sm = d["summary"]
        a("- LLVM %d, %s: median %.0f%% of the aligned path's throughput; median %.0f%% (worst "
          "%.0f%%) of promise-free code's on the same data." % (
              c["llvm"], c["label"], sm["fallback_tp_median"], sm["fallback_vs_free_median"],
              sm["fallback_vs_free_worst"]))
    a("")
    a("Issue 5's targets (item 3), per run:")
    a("")
    a("| target | run | measured | met |")
    a("|---|---|---|---|")
    # Grouped by target, in the order runs list them (a native run measures
    # only some of them).
    by_target = {}
    for c, d, _ in runs:
        for tg in d["targets"]:
            by_target.setdefault(tg["target"], []).append((c, tg))
    for rows_of_target in by_target.values():
        for c, tg in rows_of_target:
            a("| %s | LLVM %d, %s | %s | %s |" % (tg["target"], c["llvm"], c["label"],
                                                  tg["measured"], yes(tg["met"])))
    a("")
    for c, d, md in runs:
        a("## LLVM %d, kernels for %s (`%s`)" % (c["llvm"], c["label"], c["name"]))
        a("")
        a(demote(md, c["name"]))
        a("")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="every run with run.py --quick")
    ap.add_argument("--llvm", type=int, action="append", help="an LLVM major (repeatable; default 14 and 22)")
    ap.add_argument("--build-root", default=ROOT, help="where build-N are (default: the checkout)")
    ap.add_argument("--command", default="scripts/bench.sh", help="what RESULTS.md says ran it")
    args = ap.parse_args()
    majors = args.llvm or [14, 22]
    runs = []
    roots = {n: snapshot(os.path.abspath(args.build_root), n) for n in majors}
    for c in configs(majors, cpu_has_avx512()):
        data, md = run_config(c, roots[c["llvm"]], args.quick)
        runs.append((c, data, md))
    elapsed = (time.time() - START) / 60
    path = os.path.join(ROOT, "bench", "RESULTS.md")
    write(path, runs, args.quick, args.command, elapsed)
    log("wrote bench/RESULTS.md in %.1f minutes" % elapsed)


if __name__ == "__main__":
    main()
