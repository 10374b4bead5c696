#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard's benchmark for one LLVM major and kernel target (issues 5 and
13), the measurement: builds every variant of the kernels in bench/kernels,
counts their instructions with callgrind, times them in one interleaved
run, measures opt -O2's compile time with and without the plugin
(generated and TVM-shaped modules) and clang -O2's on bench/thirdparty, and
writes the numbers to OUT_DIR/measurements.json. Then, unless --no-report,
bench/report.py renders OUT_DIR/RESULTS.md (and overhead.png) from that
file alone. bench/suite.py runs it per major and target.

  scripts/bench.sh [--quick] [--llvm N]     (the entry point: installs and
                                              builds what is missing first)
  bench/run.py [--quick | --reduced] [--llvm N] [--build-dir DIR] [--out-dir DIR]
               [--work-dir DIR] [--cflags FLAGS] [--skip-compile] [--native]
               [--no-report]

Everything it builds goes to --work-dir (default BUILD/bench, BUILD is
build-N); --out-dir defaults to the work directory.
"""
import argparse
import datetime
import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import compile as ct  # noqa: E402
from measure import kernels as kn  # noqa: E402
from measure.common import (BUILDS, COMPILE_RUNS, COMPILE_SIZES, COMPILE_SIZES_QUICK,  # noqa: E402
                            CONTROL_PAIRS, INSTR_MODULES, KERNELS, OWN_TIME_RUNS, ROOT, START,
                            THIRDPARTY, TVM_RUNS, TVM_SIZES, TVM_SIZES_QUICK, VARIANT_DESC,
                            VARIANT_NAMES, VARIANTS, Tools, git_head, log, machine, run)
from measure.lanes import Job, lane_cpus, run_lanes  # noqa: E402


def run_timing(t, data, case_list, small):
    """The timing driver: each variant's output verified against plain's,
    then the interleaved times. Returns the failed verifications."""
    log("timing: one interleaved run of %d variants (and a plain-again control) x %d cases"
        % (len(VARIANT_NAMES), len(case_list)))
    data["times"], data["verify"], data["timing"] = kn.time_all(t, case_list, small)
    failed = ["%s %s" % (c, v) for c, vs in data["verify"].items() for v, s in vs.items() if s != "ok"]
    if failed:
        log("VERIFICATION FAILED: " + ", ".join(failed))
    return failed


def describe(args, t, small):
    """What the report needs to know of the run besides its numbers: the
    command, machine, compiler and checkout, the kernels, builds and
    variants, and the settings its prose quotes."""
    return dict(
        quick=args.quick, reduced=args.reduced, native=args.native, llvm=args.llvm,
        cflags=args.cflags,
        command="scripts/bench.sh" + (" --quick" if args.quick else "") +
                (" --llvm %d" % args.llvm if args.llvm != 14 else "") +
                (" (bench/run.py%s%s)" % (" --cflags '%s'" % args.cflags if args.cflags else "",
                                          " --native" if args.native else "")
                 if args.cflags or args.native else ""),
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        machine=machine(), git=git_head(), root=ROOT,
        clang_version=run([t.clang, "--version"]).stdout.splitlines()[0],
        sizes={k["name"]: (k["quick"] if small else k["sizes"]) for k in KERNELS},
        kernels=KERNELS, builds=list(BUILDS), variants=VARIANT_NAMES,
        variant_desc=VARIANT_DESC, own_time_runs=OWN_TIME_RUNS)


def static_facts(t, data, pool):
    """Builds every variant, then what needs no run: code size, hot loops,
    UBSan's checks; and what each build does on misaligned input (a
    misaligned variant whose build does not complete correctly there is
    not measured)."""
    if os.path.isdir(t.work):
        shutil.rmtree(t.work)
    os.makedirs(t.work)
    data["snapshot"] = kn.snapshot(t)
    log("building %d builds x %d kernels with %s" % (len(BUILDS), len(KERNELS), t.clang))
    data["warnings"], data["remarks"] = kn.build_all(t, pool)
    data["code_size"] = kn.code_sizes(t)
    data["hot_loops"] = kn.hot_loops(t)
    data["ubsan_checks"] = kn.ubsan_checks(t)
    log("misaligned input, one process per kernel and build")
    data["detect"] = kn.detect(t)
    for k in KERNELS:
        kn.SKIPS[k["name"]] = [v for v, b, off in VARIANTS if off and
                               "completes, correct" not in data["detect"][k["name"]][b]["what"]]
    data["skips"] = dict(kn.SKIPS)


def lane_jobs(t, args, data, case_list, m):
    """The lanes' jobs (run_lanes): callgrind's counts, and the compile-time
    pairs, own times, noise floors and third-party TUs. m: the modules
    (gen_module) and their pair counts. The estimates are rough seconds on
    a 2-vCPU VM, for the order only."""
    jobs = [Job("callgrind " + v, 15, lambda v=v: kn.callgrind(t, v, case_list))
            for v in VARIANT_NAMES]
    # return=-1: only where a kernel returns an int, smallest size.
    jobs.append(Job("callgrind return", 5, lambda: kn.callgrind(
        t, "return", [(k, data["sizes"][k["name"]][0]) for k in KERNELS if k.get("returns_int")])))
    for n, bc in m["modules"].items():
        jobs.append(Job("pass instructions %d" % n, 3 + n / 200,
                        lambda n=n, bc=bc: ct.pass_instructions(t, n, bc)))
        # Lane 0, as own times: the growth from size to size and align-guard's
        # share of opt -O2 compare seconds from one CPU.
        jobs.append(Job("opt -O2 %d kernels" % n, m["runs"][n] * n * 0.0065,
                        lambda bc=bc, pairs=m["runs"][n]: ct.compile_pairs(t, bc, pairs), lane=0))
    for n, bc in m["tvm"].items():
        jobs.append(Job("opt -O2 %d TVM-shaped" % n, m["tvm_runs"][n] * n * 0.02,
                        lambda bc=bc, pairs=m["tvm_runs"][n]: ct.compile_pairs(t, bc, pairs)))
    for (label, _, _, n, per_function), bc in zip(m["instr_modules"], m["instr_bcs"]):
        jobs.append(Job("instructions %d %s" % (n, label), per_function * n,
                        lambda label=label, bc=bc, n=n: ct.compile_instructions(t, label, bc, n)))
    if m["modules"] or m["tvm"]:
        all_bcs = list(m["modules"].values()) + list(m["tvm"].values())
        jobs.append(Job("own times", 30, lambda: ct.own_times(t, all_bcs), lane=0))
    if m["modules"]:
        smallest = m["modules"][min(m["modules"])]
        for i, cpu in enumerate(lane_cpus()):  # the noise floor on each CPU
            jobs.append(Job("control on CPU %d" % cpu, CONTROL_PAIRS * 6,
                            lambda: ct.compile_control(t, smallest, CONTROL_PAIRS), lane=i))
        # Where the cost goes, on the smallest size (the largest would take
        # two more runs of about a minute each per major).
        jobs.append(Job("pass differences", 8, lambda: ct.pass_differences(t, smallest)))
    if not args.skip_compile:
        for tu in THIRDPARTY:
            jobs.append(Job("third-party " + tu["name"],
                            tu["seconds"] * (2 if args.quick else tu["runs"]),
                            lambda tu=tu: ct.thirdparty_tu(t, tu, args.quick)))
    return jobs


def gen_modules(t, args, pool):
    """The compile-time modules, two at a time, before anything is timed."""
    os.makedirs(os.path.join(t.work, "compile"))
    sizes = [] if args.skip_compile else COMPILE_SIZES_QUICK if args.quick else COMPILE_SIZES
    tvm_sizes = [] if args.skip_compile else TVM_SIZES_QUICK if args.quick else TVM_SIZES
    instr_modules = [] if args.skip_compile else INSTR_MODULES
    mods = [pool.submit(ct.gen_module, t, n) for n in sizes]
    tmods = [pool.submit(ct.gen_module, t, n, "gen_tvm_module.py", "tvm") for n in tvm_sizes]
    imods = [pool.submit(ct.gen_module, t, n, generator, prefix + "-instr")
             for _, generator, prefix, n, _ in instr_modules]
    return dict(modules=dict(f.result() for f in mods), tvm=dict(f.result() for f in tmods),
                instr_modules=instr_modules, instr_bcs=[f.result()[1] for f in imods],
                runs={n: 2 if args.quick else COMPILE_RUNS[n] for n in sizes},
                tvm_runs={n: 2 if args.quick else TVM_RUNS[n] for n in tvm_sizes})


def collect(t, args, data, done, jobs, m):
    """The lanes' results into data."""
    data["instructions"] = {v: done["callgrind " + v] for v in VARIANT_NAMES + ["return"]}
    data["fallback_call_cost"] = kn.runtime_call_cost(t, "fallback-misaligned",
                                                      "__alignguard_fallback")
    data["pass_instructions"] = {n: done["pass instructions %d" % n] for n in m["modules"]}
    if m["instr_modules"]:
        data["compile_instr"] = {"%d %s" % (n, label): done["instructions %d %s" % (n, label)]
                                 for label, _, _, n, _ in m["instr_modules"]}
    own = done.get("own times", {})
    if m["modules"]:
        data["compile"] = {n: ct.compile_time(n, done["opt -O2 %d kernels" % n], own[bc])
                           for n, bc in sorted(m["modules"].items())}
        data["compile_control"] = [done[j.name] for j in jobs if j.name.startswith("control on ")]
        data["compile_passes_kernels"] = min(m["modules"])
        data["compile_passes"] = done["pass differences"]
    if m["tvm"]:
        data["compile_tvm"] = {n: ct.compile_time(n, done["opt -O2 %d TVM-shaped" % n], own[bc],
                                                  "TVM-shaped functions")
                               for n, bc in sorted(m["tvm"].items())}
    if not args.skip_compile:
        data["thirdparty"] = {tu["name"]: done["third-party " + tu["name"]] for tu in THIRDPARTY}


def finish(args, data, failed):
    """Writes OUT_DIR/measurements.json, renders the report from it unless
    --no-report, and fails if a verification did."""
    data["elapsed_min"] = (time.time() - START) / 60
    data["verification_failed"] = failed
    os.makedirs(args.out_dir, exist_ok=True)
    path = os.path.join(args.out_dir, "measurements.json")
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    log("wrote %s" % os.path.relpath(path, ROOT))
    if not args.no_report:
        import report  # bench/report.py: reads only measurements.json
        report.render_run_dir(args.out_dir)
        log("wrote %s" % os.path.relpath(os.path.join(args.out_dir, "RESULTS.md"), ROOT))
    if failed:
        sys.exit("bench: verification failed: " + ", ".join(failed))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer sizes, repetitions and compile-time modules")
    ap.add_argument("--llvm", type=int, default=14, help="LLVM major (default 14)")
    ap.add_argument("--build-dir", help="the AlignGuard build (default build-N)")
    ap.add_argument("--out-dir", help="where measurements.json (and RESULTS.md, overhead.png) go "
                                      "(default: the work directory)")
    ap.add_argument("--work-dir", help="where the builds go (default BUILD/bench)")
    ap.add_argument("--reduced", action="store_true",
                    help="the quick sizes and repetitions, labelled as a reduced run (bench.sh's "
                         "second target)")
    ap.add_argument("--skip-compile", action="store_true",
                    help="no compile-time or third-party measurement")
    ap.add_argument("--native", action="store_true",
                    help="no valgrind, for kernels it cannot execute (x86-64-v4, AVX-512): the hot "
                         "loops, what misaligned input does, and the timing driver's verification "
                         "and time ratios; no instruction counts, no compile time")
    ap.add_argument("--cflags", default="",
                    help="extra flags for the kernels, e.g. '-march=x86-64-v3' (an experiment: "
                         "write it to another --out-dir; valgrind does not run AVX-512)")
    ap.add_argument("--no-report", action="store_true",
                    help="write measurements.json only (bench/suite.py renders one report "
                         "for all runs)")
    args = ap.parse_args()
    if args.native:
        args.skip_compile = True  # its instruction counts need valgrind too
    t = Tools(args.llvm, os.path.abspath(args.build_dir or os.path.join(ROOT, "build-%d" % args.llvm)),
              args.cflags.split(), work=args.work_dir and os.path.abspath(args.work_dir))
    args.out_dir = os.path.abspath(args.out_dir or t.work)
    small = args.quick or args.reduced
    case_list = kn.cases(small)
    data = describe(args, t, small)

    with ThreadPoolExecutor(max_workers=2) as pool:
        static_facts(t, data, pool)
        if args.native:  # no valgrind: no counts and no compile time
            return finish(args, data, run_timing(t, data, case_list, small))
        m = gen_modules(t, args, pool)

    # The kernels' timing driver alone: nothing else of the suite's runs
    # meanwhile.
    failed = run_timing(t, data, case_list, small)

    # Then the rest in lanes, one per CPU (run_lanes): callgrind's counts,
    # and the compile-time pairs, each pair's two runs sharing one CPU.
    log("lanes: callgrind of %d variants x %d cases%s" % (
        len(VARIANT_NAMES), len(case_list),
        "; compile time: opt -O2 on %s kernels, on TVM-shaped modules of %s functions; "
        "opt -O2's and the pass's instructions; third-party translation units" % (
            ", ".join("%d (%d pairs)" % (n, m["runs"][n]) for n in m["modules"]),
            ", ".join(map(str, m["tvm"]))) if m["modules"] else ""))
    jobs = lane_jobs(t, args, data, case_list, m)
    ct.nodebug_plugin(t)  # once, before jobs in two lanes want it
    done, data["lanes"] = run_lanes(jobs)
    collect(t, args, data, done, jobs, m)
    finish(args, data, failed)


if __name__ == "__main__":
    main()
