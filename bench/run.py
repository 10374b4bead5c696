#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""AlignGuard's benchmark for one LLVM major and kernel target (issues 5 and
13): builds every variant of the kernels in bench/kernels, counts their
instructions with callgrind, times them in one interleaved run, measures
opt -O2's compile time with and without the plugin (generated and TVM-shaped
modules) and clang -O2's on bench/thirdparty, and writes RESULTS.md and
overhead.png (bench/suite.py runs it per major and target and assembles
bench/RESULTS.md).

  scripts/bench.sh [--quick] [--llvm N]     (the entry point: installs and
                                              builds what is missing first)
  bench/run.py [--quick | --reduced] [--llvm N] [--build-dir DIR] [--out-dir DIR]
               [--work-dir DIR] [--cflags FLAGS] [--skip-compile]

Everything it builds goes to --work-dir (default BUILD/bench, BUILD is
build-N); the raw numbers are kept there in results.json.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = time.time()

KI, MI = 1024, 1024 * 1024
VECTOR_SIZES = [KI, 16 * KI, 64 * KI, 256 * KI, MI, 4 * MI]
VECTOR_SIZES_QUICK = [KI, 64 * KI, MI]

# The kernels: the symbol the driver calls, its source, how it promises
# alignment, its sizes (elements for vectors, pixels for images, the matrix
# dimension n for GEMM) and, where it is not the kernel itself, the function
# whose hot loop is compared.
KERNELS = [
    dict(name="saxpy", src="saxpy.c", promise="align_value",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK),
    dict(name="dot", src="dot.c", promise="__builtin_assume_aligned",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK),
    dict(name="stencil3x3", src="stencil.c", promise="__builtin_assume_aligned",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK, unit="pixels"),
    # The per-row promises come after stores, so fallback cannot rerun the
    # call: on misaligned input it aborts (see kernels/stencil_rows.c).
    # entry=False: its promises are made inside the row loop, not at entry,
    # so the per-place target (issue 13) leaves it out; it has its own.
    dict(name="stencil3x3_rows", src="stencil_rows.c", promise="__builtin_assume_aligned per row",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK, unit="pixels", entry=False),
    dict(name="gemm", src="gemm.c", promise="__builtin_assume_aligned",
         sizes=[64, 128, 256, 512], quick=[64, 256], unit="n"),
    dict(name="conv1d", src="conv1d.c", promise="__builtin_assume_aligned",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK),
    # TVM-style packed function; its hot loop is in the compute function.
    # It returns int32_t, so `return=N` applies to it (returns_int).
    dict(name="fused_scale_add", src="tvm.c", promise="__builtin_assume_aligned, align_value",
         sizes=VECTOR_SIZES, quick=VECTOR_SIZES_QUICK, loop_fn="fused_scale_add_compute_",
         extra_syms=["fused_scale_add_compute_"], returns_int=True),
]

# Builds: one shared library of all kernels per build. `pipeline` is
# ALIGNGUARD_PIPELINE for a build with the plugin (None: no plugin).
BUILDS = {
    "plain": dict(pipeline=None, cflags=[]),
    "abort": dict(pipeline="align-guard<abort>", cflags=[]),
    "fallback": dict(pipeline="align-guard<fallback>", cflags=[]),
    "recover": dict(pipeline="align-guard<recover>", cflags=[]),
    "ubsan": dict(pipeline=None,
                  cflags=["-fsanitize=alignment", "-fno-sanitize-recover=alignment"],
                  ldflags=["-fsanitize=alignment", "-shared-libsan"]),
    "ubsan-trap": dict(pipeline=None,
                       cflags=["-fsanitize=alignment", "-fsanitize-trap=alignment"]),
}

# Built only for the per-place table (issue 13): `return=-1`, for the
# kernels that return an int (returns_int); the others are compiled without
# the plugin in this build (return=N needs an integer return), and it is
# only counted with callgrind, at the smallest size.
EXTRA_BUILDS = {
    "return": dict(pipeline="align-guard<return=-1>", cflags=[]),
}
PLACE_ACTIONS = ["abort", "recover", "return", "fallback"]

# Variants: a build and the offset of the buffers from a 64-byte boundary.
# recover-misaligned is a diagnostic, not one of the issue's variants: it
# runs promise-free code (a failing call reruns in the recover copy, which
# drops the promises it checks) on the misaligned buffers, which tells what
# misaligned data costs by itself.
VARIANTS = [
    ("plain", "plain", 0),
    ("abort", "abort", 0),
    ("fallback", "fallback", 0),
    ("fallback-misaligned", "fallback", 4),
    ("recover", "recover", 0),
    ("recover-misaligned", "recover", 4),
    ("ubsan", "ubsan", 0),
    ("ubsan-trap", "ubsan-trap", 0),
]
VARIANT_NAMES = [v[0] for v in VARIANTS]
VARIANT_DESC = {
    "plain": "clang -O3, no instrumentation (the reference)",
    "abort": "`align-guard<abort>` (ALIGNGUARD_PIPELINE, -fpass-plugin, runtime linked), aligned input",
    "fallback": "`align-guard<fallback>`, aligned input",
    "fallback-misaligned": "`align-guard<fallback>`, every buffer 4 bytes past a 64-byte boundary (runs the unaligned copy)",
    "recover": "`align-guard<recover>`, aligned input (where nothing observable runs before the check, a failing call reruns in a recover copy and the aligned path keeps its promises; elsewhere recover drops them)",
    "recover-misaligned": "diagnostic: `align-guard<recover>` on the misaligned buffers: the recover copy (promise-free code) on misaligned data",
    "ubsan": "clang `-fsanitize=alignment -fno-sanitize-recover=alignment` (UBSan runtime), aligned input",
    "ubsan-trap": "clang `-fsanitize=alignment -fsanitize-trap=alignment` (no runtime), aligned input",
}

COMPILE_SIZES = [1000, 4000, 16000]
COMPILE_SIZES_QUICK = [1000, 4000]
# opt -O2 pairs per module (compile_time), an even number: the pairs come
# two at a time from a quad (opt_quad), two chains of processes at once on
# TIMING_CPU, one running opt -O2 without the plugin and then with it, the
# other with it and then without; each pair is a run without and a run with
# the plugin that shared the CPU. Until 2026-12-04 a pair was the two runs
# one after the other, and the VM's slow spells of tens of seconds, in which
# every process takes up to a third more CPU time, fell on one run of a pair
# and not the other: the 16000-kernel pairs of one suite run were up to 20
# points apart, and the figures moved from run to run between -7% and
# +13% (bench/README.md). Sharing one CPU, the two runs of a pair see the
# same spells: 2026-12-04, LLVM 22, 1000 kernels, during a slow spell (opt
# -O2 alone took 2.8 .. 3.8 s where 2.5 s is usual), three quads of the
# same command against itself read -0.1 .. +0.2%, where six pairs one
# after the other read +0.7 .. +5.0% with the plugin and six quads +4.2 ..
# +5.5%. Both chains do the same work, so they end together and every
# process shares the CPU all its life (quad alternates which chain runs
# the plugin first); two processes started together
# without the second run of each chain read about 10% less (+4.5% for
# +5.1%), the share of its life the longer one ran alone and faster.
# Sharing costs each process about a tenth more CPU time than running
# alone (the cache it shares), so the CPU seconds in the results are
# those of processes that shared a CPU; the cost is their ratio.
COMPILE_RUNS = {1000: 6, 4000: 2, 16000: 2}
# The noise floor: opt -O2 without the plugin against itself, one quad (two
# pairs) on the smallest module.
CONTROL_PAIRS = 2
# align-guard's own time (own_time): the median of this many runs of the
# pass alone. One run (until 2026-12-03) read 35 ms on 1000 kernels and
# 161 ms on 4000 in one suite run (x4.6) where callgrind counted x4.005:
# tens of milliseconds move with the machine as a whole second does.
OWN_TIME_RUNS = 3
# TVM-shaped modules (gen_tvm_module.py): packed functions, and runs.
TVM_SIZES = [300, 1200]
TVM_SIZES_QUICK = [300]
TVM_RUNS = {300: 4, 1200: 2}
# The same cost in instructions executed (callgrind: repeatable, where the
# CPU times above carry the noise of a shared VM), on modules
# small enough for callgrind: generated kernels and TVM-shaped functions
# (label, generator, prefix, functions, and roughly the seconds both
# callgrind runs take per function, sharing one CPU: run_lanes' order).
INSTR_MODULES = [("kernels", "gen_compile_module.py", "k", 125, 0.25),
                 ("TVM-shaped functions", "gen_tvm_module.py", "tvm", 40, 0.75)]

# Third-party translation units (bench/thirdparty): compiled with clang -O2
# with and without the plugin (abort); pairs per TU, an even number (quad;
# their median), and roughly the seconds a pair takes (run_lanes' order).
THIRDPARTY = [
    dict(name="Eigen 3", src="eigen_products.cpp", lang="c++", runs=2, seconds=16),
    dict(name="Highway", src="hwy_loops.cpp", lang="c++", runs=4, seconds=1.2),
    dict(name="xsimd", src="xsimd_loops.cpp", lang="c++", runs=4, seconds=2),
    dict(name="plain C program", src="plain_program.c", lang="c", runs=4, seconds=0.8),
]


def log(msg):
    print("[bench %5.0fs] %s" % (time.time() - START, msg), flush=True)


def run(cmd, env=None, **kw):
    """Runs cmd; on failure prints its output and stops the benchmark."""
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    if p.returncode != 0:
        sys.stderr.write("$ %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
        sys.exit("bench: command failed (exit %d)" % p.returncode)
    return p


def size_label(n):
    for unit, name in ((MI, "Mi"), (KI, "Ki")):
        if n >= unit and n % unit == 0:
            return "%d %s" % (n // unit, name)
    return str(n)


def elements(k, size):
    """Elements of the largest operand, for the '64 Ki elements and up' targets."""
    return size * size if k.get("unit") == "n" else size


def case_label(k, size):
    if k.get("unit") == "n":
        return "n=%d (%s el.)" % (size, size_label(size * size))
    return size_label(size)


def env_with(**kw):
    """The environment without the user's AlignGuard settings, plus kw."""
    env = dict(os.environ)
    env.pop("ALIGNGUARD_PIPELINE", None)
    env.pop("ALIGNGUARD_OPTIONS", None)
    env.update(kw)
    return env


# ----------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------

class Tools:
    def __init__(self, llvm, build_dir, cflags=(), work=None):
        self.llvm = llvm
        self.cflags = list(cflags)  # extra flags for the kernels (--cflags)
        self.bin = "/usr/lib/llvm-%d/bin" % llvm
        self.clang = os.path.join(self.bin, "clang")
        self.opt = os.path.join(self.bin, "opt")
        self.nm = os.path.join(self.bin, "llvm-nm")
        self.build = build_dir
        self.plugin = os.path.join(build_dir, "AlignGuard.so")
        self.runtime = os.path.join(build_dir, "runtime", "libalignguard_rt.a")
        self.work = work or os.path.join(build_dir, "bench")
        for path in (self.clang, self.opt, self.nm, self.plugin, self.runtime):
            if not os.path.exists(path):
                sys.exit("bench: %s is missing (scripts/bench.sh installs and builds it)" % path)


def build_kernel(t, build, k):
    """One kernel of one build: .c -> .s (kept for the hot-loop comparison)
    -> .o, plus the IR before and after optimisation for the UBSan builds.
    Returns the compiler's warnings."""
    spec = dict(BUILDS, **EXTRA_BUILDS)[build]
    if build == "return" and not k.get("returns_int"):
        spec = BUILDS["plain"]
    out = os.path.join(t.work, build)
    src = os.path.join(ROOT, "bench", "kernels", k["src"])
    base = os.path.join(out, os.path.splitext(k["src"])[0])
    flags = ["-O3", "-fPIC"] + t.cflags + spec["cflags"]
    env = env_with()
    if spec["pipeline"]:
        flags.append("-fpass-plugin=" + t.plugin)
        env["ALIGNGUARD_PIPELINE"] = spec["pipeline"]
    # The pass's remarks say which pointers it checks and at which site
    # (the per-place table's k); they do not change the code.
    remark = ["-Rpass=align-guard"] if spec["pipeline"] else []
    p = run([t.clang] + flags + remark + ["-S", src, "-o", base + ".s"], env=env)
    run([t.clang, "-c", base + ".s", "-o", base + ".o"])
    if build.startswith("ubsan"):
        run([t.clang] + flags + ["-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes",
                                 src, "-o", base + ".frontend.ll"], env=env)
        run([t.clang] + flags + ["-S", "-emit-llvm", src, "-o", base + ".O3.ll"], env=env)
    return p.stderr.strip()


REMARK = re.compile(r"remark: (.*) checked at site (\d+) \(([^,]+), ([\w-]+)\)")


def split_remarks(text):
    """The compiler's stderr -> (its warnings, [(subject, site, placement)])
    from the `checked at site` remarks (-Rpass=align-guard)."""
    warnings, remarks, keep = [], [], False
    for line in text.splitlines():
        m = REMARK.search(line)
        if m:
            remarks.append((m.group(1), int(m.group(2)), m.group(4)))
            keep = False
        elif "remark:" in line:
            keep = False
        elif "warning:" in line or "error:" in line:
            keep = True
            warnings.append(line)
        elif keep:
            warnings.append(line)
    return "\n".join(warnings).strip(), remarks


def link_build(t, build):
    spec = dict(BUILDS, **EXTRA_BUILDS)[build]
    out = os.path.join(t.work, build)
    objs = [os.path.join(out, os.path.splitext(k["src"])[0] + ".o") for k in KERNELS]
    cmd = [t.clang, "-shared", "-Wl,-Bsymbolic", "-o", os.path.join(t.work, build + ".so")]
    cmd += objs + spec.get("ldflags", [])
    if spec["pipeline"]:
        cmd.append(t.runtime)
    if "-shared-libsan" in cmd:
        cmd.append("-Wl,-rpath," + ubsan_runtime_dir(t))
    run(cmd)


def ubsan_runtime_dir(t):
    """Where clang's shared UBSan runtime is, for the rpath of the builds
    linked with -shared-libsan. Not `-print-runtime-dir`: clang 19 names
    the per-target directory (lib/x86_64-pc-linux-gnu) there, which
    Debian's package does not have; its runtime is in lib/linux."""
    for name in ("libclang_rt.ubsan_standalone-x86_64.so", "libclang_rt.ubsan_standalone.so"):
        path = run([t.clang, "--print-file-name=" + name]).stdout.strip()
        if os.path.isabs(path) and os.path.exists(path):
            return os.path.dirname(path)
    sys.exit("bench: %s finds no shared UBSan runtime (scripts/setup.sh %d installs it)"
             % (t.clang, t.llvm))


def snapshot(t):
    """Copies the plugin and the runtime into the work directory and uses the
    copies for the whole run, so that a rebuild of build-N while the
    benchmark runs cannot mix two plugins in one set of results."""
    import hashlib
    info = {}
    for attr, name in (("plugin", "AlignGuard.so"), ("runtime", "runtime/libalignguard_rt.a")):
        src, dst = getattr(t, attr), os.path.join(t.work, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        with open(dst, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
        info[attr] = "%s (sha256 %s, built %s)" % (
            os.path.relpath(src, ROOT), digest,
            datetime.datetime.fromtimestamp(os.path.getmtime(src)).strftime("%Y-%m-%d %H:%M"))
        setattr(t, attr, dst)
    return info


def build_all(t, pool):
    builds = list(BUILDS) + list(EXTRA_BUILDS)
    for b in builds:
        os.makedirs(os.path.join(t.work, b))
    jobs = {(b, k["name"]): pool.submit(build_kernel, t, b, k) for b in builds for k in KERNELS}
    split = {key: split_remarks(f.result()) for key, f in jobs.items()}
    warnings = {key: w for key, (w, _) in split.items()}
    remarks = {"%s/%s" % key: r for key, (_, r) in split.items()}
    for f in [pool.submit(link_build, t, b) for b in builds]:
        f.result()
    # The driver: plain -O2, the same for every variant; -rdynamic so that
    # the TVM kernel finds TVMAPISetLastError in it.
    run([t.clang, "-O2", "-rdynamic", os.path.join(ROOT, "bench", "driver.c"),
         "-o", os.path.join(t.work, "driver"), "-ldl", "-lm"])
    return {"%s/%s" % key: w for key, w in warnings.items() if w}, remarks


def variant_spec(t, name):
    build, offset = {v[0]: (v[1], v[2]) for v in VARIANTS + [("return", "return", 0)]}[name]
    return "%s=%s@%d" % (name, os.path.join(t.work, build + ".so"), offset)


def cases(quick):
    return [(k, s) for k in KERNELS for s in (k["quick"] if quick else k["sizes"])]


# Misaligned variants that cannot run a kernel: {kernel: [variant]}, set
# by main() from the misaligned-input runs (a build whose kernel aborts or
# crashes on misaligned input is not measured there).
SKIPS = {}


def skipped(k, variant):
    return variant in SKIPS.get(k["name"], [])


# UBSan's builds are not counted at the largest GEMM: their loops are not
# vectorised there, and n=512 alone was 2.8 G of the 5.2 G kernel
# instructions callgrind ran per major (their time is still measured; the
# tables show "-" for the count).
def uncounted(k, size, variant):
    return variant in ("ubsan", "ubsan-trap") and k["name"] == "gemm" and size >= 512


def case_arg(k, size):
    skip = SKIPS.get(k["name"], [])
    return "%s:%d%s" % (k["name"], size, ":skip=" + ",".join(skip) if skip else "")


# ----------------------------------------------------------------------------
# Static facts: code size, hot loops, UBSan instrumentation
# ----------------------------------------------------------------------------

def code_sizes(t):
    """{build: {kernel: (entry bytes, copy bytes)}} from the symbol table:
    the kernel's functions, and separately the unaligned copies that
    fallback adds (<name>.alignguard.unaligned)."""
    sizes = {}
    for b in BUILDS:
        out = run([t.nm, "-S", "--defined-only", os.path.join(t.work, b + ".so")]).stdout
        syms = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2].lower() == "t":
                syms[parts[3]] = syms.get(parts[3], 0) + int(parts[1], 16)
        sizes[b] = {}
        for k in KERNELS:
            own = [k["name"]] + k.get("extra_syms", [])
            entry = sum(syms.get(s, 0) for s in own)
            copies = sum(n for s, n in syms.items()
                         if ".alignguard.unaligned" in s and s.split(".")[0] in own)
            sizes[b][k["name"]] = (entry, copies)
    return sizes


def load_hot_loop_tool():
    """tests/tools/compare-hot-loop.py, for its assembly parsing and
    register normalisation."""
    import importlib.util
    path = os.path.join(ROOT, "tests", "tools", "compare-hot-loop.py")
    spec = importlib.util.spec_from_file_location("compare_hot_loop", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def innermost_hot_loop(tool, insts):
    """The innermost loop with the most packed vector instructions (tool.is_vector): a range from a
    label to a later jump back to it that contains no smaller such range.
    (The test tool takes the largest range, which can reach past the loop
    into out-of-line blocks that jump back into it, and so sees a `pop` of
    the epilogue as part of the loop.)"""
    labels = {lab: i for i, (lab, _, _) in enumerate(insts) if lab}
    ranges = [(labels[ops.strip()], j) for j, (_, mn, ops) in enumerate(insts)
              if mn and mn.startswith("j") and ops.strip() in labels and labels[ops.strip()] < j]
    inner = [r for r in ranges
             if not any(o != r and r[0] <= o[0] and o[1] <= r[1] for o in ranges)]

    def body(r):
        return [(m, o) for (_, m, o) in insts[r[0]:r[1] + 1] if m]

    scored = [(sum(tool.is_vector(m, o) for m, o in body(r)), r) for r in inner]
    scored = [x for x in scored if x[0] > 0]
    return body(max(scored, key=lambda x: x[0])[1]) if scored else None


def hot_loops(t):
    """Each build's hot loop (per kernel) against plain's: the same
    instructions up to register names, with the same aligned accesses?"""
    tool = load_hot_loop_tool()
    res = {}
    for k in KERNELS:
        fn = k.get("loop_fn", k["name"])
        stem = os.path.splitext(k["src"])[0] + ".s"
        loops = {}
        for b in BUILDS:
            with open(os.path.join(t.work, b, stem)) as f:
                loops[b] = innermost_hot_loop(tool, tool.instructions(
                    tool.function_body(f.readlines(), fn)))
        plain = loops["plain"]
        plain_aligned = [a.split()[0] for a in tool.aligned_accesses(plain)] if plain else []
        res[k["name"]] = {}
        for b in BUILDS:
            if b == "plain":
                continue
            other = loops[b]
            if not plain:
                verdict = "plain has no vector loop"
            elif not other:
                verdict = "no vector loop"
            elif tool.normalize(plain) == tool.normalize(other):
                same_aligned = [a.split()[0] for a in tool.aligned_accesses(other)] == plain_aligned
                verdict = "identical" if same_aligned else "aligned accesses differ"
            else:
                verdict = "differs (%d vs %d instructions, %d vs %d aligned accesses)" % (
                    len(plain), len(other), len(plain_aligned), len(tool.aligned_accesses(other)))
            res[k["name"]][b] = dict(
                verdict=verdict,
                plain_aligned="%d of %d instructions (%s)" % (
                    len(plain_aligned), len(plain) if plain else 0,
                    ", ".join(sorted(set(plain_aligned))) or "none"))
    return res


def ubsan_checks(t):
    """Per kernel and UBSan build: the checks in the IR straight from clang
    and after -O3, counted as the conditional branches clang marks
    !nosanitize (one per check; trap mode shares one trap block per
    function, so counting traps would undercount)."""
    res = {}
    pat = re.compile(r"^\s*br i1 .*!nosanitize", re.M)
    for k in KERNELS:
        res[k["name"]] = {}
        for b in ("ubsan", "ubsan-trap"):
            base = os.path.join(t.work, b, os.path.splitext(k["src"])[0])
            counts = []
            for suffix in (".frontend.ll", ".O3.ll"):
                with open(base + suffix) as f:
                    counts.append(len(pat.findall(f.read())))
            res[k["name"]][b] = counts
    return res


# ----------------------------------------------------------------------------
# Measuring: callgrind, misaligned-input behaviour, time
# ----------------------------------------------------------------------------

def callgrind(t, variant, case_list):
    """Instructions of one call of each case in bench_region (the driver's
    function around the kernel call), one callgrind dump per call."""
    out = os.path.join(t.work, "callgrind", variant)
    os.makedirs(out, exist_ok=True)
    args = [case_arg(k, s) for k, s in case_list
            if not skipped(k, variant) and not uncounted(k, s, variant)]
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(out, "cg"),
           "--collect-atstart=no", "--toggle-collect=bench_region",
           "--dump-after=bench_region", os.path.join(t.work, "driver"), "count",
           variant_spec(t, variant), "--"] + args
    p = run(cmd, env=env_with(ALIGNGUARD_OPTIONS="quiet=1"))
    counted = [l.split()[1:3] for l in p.stdout.splitlines() if l.startswith("counted ")]
    dumps = sorted((f for f in os.listdir(out) if re.match(r"cg\.\d+$", f)),
                   key=lambda f: int(f.split(".")[1]))
    if len(dumps) != len(counted):
        sys.exit("bench: callgrind wrote %d dumps for %d calls (%s)" % (len(dumps), len(counted), variant))
    res = {}
    for (kname, size), dump in zip(counted, dumps):
        with open(os.path.join(out, dump)) as f:
            total = re.search(r"^totals:\s*(\d+)", f.read(), re.M)
        res["%s:%s" % (kname, size)] = int(total.group(1))
    return res


def detect(t):
    """Each build's kernels called once on buffers 4 bytes past a 64-byte
    boundary (smallest size): what happens, without AlignGuard and with."""
    res = {}
    builds = ["plain", "abort", "fallback", "recover", "ubsan", "ubsan-trap"]
    for k in KERNELS:
        res[k["name"]] = {}
        for b in builds:
            spec = "%s=%s@4" % (b, os.path.join(t.work, b + ".so"))
            p = subprocess.run([os.path.join(t.work, "driver"), "detect", k["name"],
                                variant_spec(t, "plain"), spec],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=60, env=env_with())
            reported = "alignguard:" in p.stderr or "runtime error:" in p.stderr
            if p.returncode < 0:
                sig = {6: "abort", 4: "SIGILL", 11: "SIGSEGV", 7: "SIGBUS"}.get(
                    -p.returncode, "signal %d" % -p.returncode)
                what = ("report, then " if reported else "no report, ") + sig
            elif p.returncode == 0:
                result = "correct" if "completed correct" in p.stdout else "WRONG"
                what = ("report, " if reported else "") + "completes, " + result + " result"
            else:
                what = ("report, then " if reported else "no report, ") + "exit %d" % p.returncode
            first = next((l for l in p.stderr.splitlines()
                          if "alignguard:" in l or "runtime error:" in l), "")
            res[k["name"]][b] = dict(what=what, message=first.strip())
    return res


def time_all(t, case_list, quick):
    """One driver process on TIMING_CPU, all variants, every case:
    verification, then interleaved repetitions. Returns ({case: {variant: samples}}, verify)."""
    reps, sample_ms, budget_ms = (7, 2, 1500) if quick else (21, 4, 4000)
    cmd = [os.path.join(t.work, "driver"), "time", "--reps", str(reps),
           "--sample-ms", str(sample_ms), "--case-budget-ms", str(budget_ms)]
    # plain-again: plain's library once more under another name, an A/A
    # control: its time ratio to plain shows the noise of the measurement.
    cmd += [variant_spec(t, v) for v in VARIANT_NAMES]
    cmd += ["plain-again=%s@0" % os.path.join(t.work, "plain.so"), "--"]
    cmd += [case_arg(k, s) for k, s in case_list]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, universal_newlines=True,
                         env=env_with(ALIGNGUARD_OPTIONS="quiet=1"), preexec_fn=on_timing_cpu)
    times, verify = {}, {}
    for line in p.stdout:
        f = line.split()
        if f[0] == "verify":
            verify.setdefault("%s:%s" % (f[1], f[2]), {})[f[3]] = f[4]
        elif f[0] == "time":
            key = "%s:%s" % (f[1], f[2])
            times.setdefault(key, {})[f[3]] = [float(x) for x in f[5:]]
            if f[3] == VARIANT_NAMES[0]:
                log("  timed %s (%d reps x %s calls)" % (key, len(f) - 5, f[4]))
    if p.wait() not in (0, 1):  # 1: a verification failed, reported by the caller
        sys.exit("bench: the timing driver failed (exit %d)" % p.returncode)
    return times, verify, dict(reps=reps, sample_ms=sample_ms, budget_ms=budget_ms)


# ----------------------------------------------------------------------------
# Compile time
# ----------------------------------------------------------------------------

def gen_module(t, n, generator="gen_compile_module.py", prefix="k"):
    """Writes a module of n functions with `generator` and compiles it to
    exactly what clang -O2 hands to its optimisation pipeline."""
    c = os.path.join(t.work, "compile", "%s%d.c" % (prefix, n))
    bc = c[:-2] + ".bc"
    run([sys.executable, os.path.join(ROOT, "bench", generator), str(n), c])
    run([t.clang, "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c", c, "-o", bc])
    return n, bc


# Every timed process runs on this one CPU (the highest the suite may use).
# On this 2-vCPU VM the scheduler put consecutive processes on alternating
# CPUs, and the two ran the same command at different speeds for minutes at
# a time (2026-12-03, opt -O2 on 1000 kernels, LLVM 22, idle machine, eight
# runs in a row: 2.08, 2.86, 2.02, 2.83, 2.04, 2.84, 2.02, 2.90 s; pinned:
# 2.86 s on CPU 0 and 2.05 s on CPU 1, three times each). That, not the
# plugin, was most of the compile-time noise floor of the suite's runs
# until then (-23.3% .. +5.0%). Pinned, the two runs of a pair one after
# the other (2026-12-03) shared the CPU's state: five pairs on 1000
# kernels, LLVM 14, differed by -0.4% .. +0.4%; since 2026-12-04 they
# share it at the same time (quad).
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


def object_size(t, obj):
    """An object's size in bytes, as llvm-size's columns count it: text
    (code and read-only data, .rodata included) and data (writable data,
    .data.rel.ro included)."""
    out = run([os.path.join(t.bin, "llvm-size"), obj]).stdout.splitlines()
    text, data = out[1].split()[:2]
    return dict(text=int(text), data=int(data))


def thirdparty_tu(t, tu, quick):
    """A third-party TU (THIRDPARTY): clang -O2 -c with and without the
    plugin (align-guard<abort>), the median pair's CPU time, the objects'
    text and data sizes, the checks added."""
    out = os.path.join(t.work, "thirdparty")
    os.makedirs(out, exist_ok=True)
    src = os.path.join(ROOT, "bench", "thirdparty", tu["src"])
    stem = os.path.join(out, os.path.splitext(tu["src"])[0])
    if tu["lang"] == "c++":
        base = [t.clang + "++", "-std=c++17", "-O2", "-I/usr/include/eigen3"]
    else:
        base = [t.clang, "-O2"]
    base += t.cflags
    env = env_with(ALIGNGUARD_PIPELINE="align-guard<abort>")

    def commands(chain):
        """A quad's commands; each chain writes its own objects."""
        tail = "" if chain == 0 else ".%d" % chain
        return {"base": (base + ["-c", src, "-o", stem + tail + ".o"], env_with()),
                "plugin": (base + ["-fpass-plugin=" + t.plugin, "-c", src,
                                   "-o", stem + tail + ".ag.o"], env)}
    # One run with the remarks: how many checks the plugin adds.
    p = run(commands(0)["plugin"][0] + ["-Rpass=align-guard"], env=env)
    checks = len(REMARK.findall(p.stderr))
    samples = pairs_of(2 if quick else tu["runs"],
                       lambda flip: quad(commands, "clang -O2", stem + ".clang", flip))
    # The median pair, as compile_time (and for its reason).
    b = statistics.median(x["base"][0] for x in samples)
    w = statistics.median(x["plugin"][0] for x in samples)
    cost = 100 * statistics.median(x["plugin"][0] / x["base"][0] - 1 for x in samples)
    size_base, size_plugin = object_size(t, stem + ".o"), object_size(t, stem + ".ag.o")
    log("  %s: clang -O2 %.2fs without, %.2fs with the plugin, %d checks" % (tu["name"], b, w, checks))
    return dict(src=tu["src"], base=b, plugin=w, cost=cost, runs=len(samples), checks=checks,
                text_base=size_base["text"], text_plugin=size_plugin["text"],
                data_base=size_base["data"], data_plugin=size_plugin["data"])


def nodebug_plugin(t):
    """A copy of the plugin without debug info: valgrind 3.19 cannot read
    the DWARF of a RelWithDebInfo build."""
    plugin = os.path.join(t.work, "compile", "AlignGuard.nodebug.so")
    if not os.path.exists(plugin):
        run([os.path.join(t.bin, "llvm-objcopy"), "--strip-debug", t.plugin, plugin])
    return plugin


def callgrind_total(path):
    """The instructions a callgrind dump counted."""
    with open(path) as f:
        return int(re.search(r"^totals:\s*(\d+)", f.read(), re.M).group(1))


def whole_cost(r):
    """{base, plugin} -> the plugin's cost in percent of base; a timed
    measurement's own estimate (cost: compile_time, thirdparty) where it
    has one."""
    if "cost" in r:
        return r["cost"]
    return 100.0 * (r["plugin"] - r["base"]) / r["base"]


def added_seconds(c):
    """What the plugin adds to a timed measurement, in seconds."""
    return whole_cost(c) / 100 * c["base"]


def pass_instructions(t, n, bc):
    """Instructions the align-guard pass itself executes on a module
    (callgrind, counting only AlignGuardPass::run, with `-passes=align-guard`
    alone): unlike its time, independent of the machine's noise and of how
    well a bigger module fits in the caches. Collection toggles at the pass
    manager's wrapper (PassModel<Module, AlignGuardPass, ...>::run): a
    pattern that named AlignGuardPass::run would also match the lambdas
    inside it, and each of those would toggle collection off again (until
    2026-12 the suite counted about a ninth of the pass that way)."""
    plugin = nodebug_plugin(t)
    out = os.path.join(t.work, "compile", "callgrind.%d" % n)
    run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
         "--toggle-collect=llvm::detail::PassModel<llvm::Module, alignguard::AlignGuardPass*",
         t.opt, "-load-pass-plugin=" + plugin, "-passes=align-guard", "-disable-output", bc],
        env=env_with())
    return callgrind_total(out)


def time_passes_file(t, bc, config):
    """Where opt_profiled keeps the -time-passes report of its run on bc
    (config: base or plugin)."""
    return os.path.join(t.work, "compile", "time-passes.%s.%s.txt" % (os.path.basename(bc), config))


def opt_command(t, bc, config, *extra):
    """opt -O2 on bc without the plugin (config base) or with it (plugin,
    and its environment): (command, environment)."""
    if config == "base":
        return [t.opt, "-passes=default<O2>", "-disable-output", *extra, bc], env_with()
    return ([t.opt, "-load-pass-plugin=" + t.plugin, "-passes=default<O2>", "-disable-output",
             *extra, bc], env_with(ALIGNGUARD_PIPELINE="align-guard"))


def opt_quad(t, bc, control=False, flip=False):
    """opt -O2 without the plugin and with it: one quad (quad), its two
    pairs [{config: (CPU seconds, peak resident memory in KiB)}].
    control: every run without the plugin (the noise floor).
    Never a pair's two runs on two CPUs: on this machine two opt processes
    on two CPUs slowed each other unevenly (a noise floor of -19% .. +32%
    on 1000 kernels, LLVM 14, in 2026-12), and the two CPUs ran the same
    command at different speeds (TIMING_CPU); the quad's four runs share
    the lane's CPU, while the other lane runs another job (run_lanes).
    Not with -time-passes (opt_profiled): its timers cost opt -O2 a third
    more CPU time (2026-12-03, 1000 kernels, LLVM 22: 2.26 -> 3.07 s, half
    of the growth system time), which is not what a build pays, and which
    the plugin's own analyses add to (each is timed)."""
    cmds = {name: opt_command(t, bc, "base" if control else name) for name in ("base", "plugin")}
    stem = os.path.join(t.work, "compile", "opt.%s.cpu%d" % (
        "control" if control else os.path.basename(bc), lane_cpu()))
    return quad(lambda chain: cmds, "opt -O2", stem, flip)


def time_passes_seconds(text):
    """A -time-passes report's lines: {name: User+System seconds}, summed
    over the report's sections."""
    d = {}
    for line in text.splitlines():
        # ---User--- --System-- --User+System-- ---Wall--- Name
        nums = re.findall(r"([\d.]+) \(", line)
        if len(nums) >= 3:
            name = re.split(r"\)\s+", line)[-1].strip()
            d[name] = d.get(name, 0) + float(nums[2])
    return d


def opt_profiled(t, bc, config):
    """One opt -O2 run with -time-passes, its report in time_passes_file
    (pass_differences)."""
    cmd, env = opt_command(t, bc, config, "-time-passes")
    run_pinned(cmd, env, "opt -time-passes (%s)" % config, time_passes_file(t, bc, config))


def own_times(t, bcs):
    """{bc: own_time(t, bc)} for every module, one job (run_lanes): the
    growth from module to module is measured on one CPU."""
    return {bc: own_time(t, bc) for bc in bcs}


def own_time(t, bc):
    """align-guard's own CPU seconds on bc (its -time-passes line: the
    analyses it asks for are timed apart; the median of OWN_TIME_RUNS
    runs), from `opt -passes=
    'align-guard<deferred>'` alone: the pass the pipeline runs at its start,
    on the same IR (bc is what clang hands to the pipeline, and the passes
    before it there change no function), for the reading of the bitcode
    and no more, where a whole profiled opt -O2 on 16000 kernels would
    take a minute of the suite's 20."""
    cmd = [t.opt, "-load-pass-plugin=" + t.plugin, "-passes=align-guard<deferred>",
           "-disable-output", "-time-passes", bc]
    seconds = []
    for _ in range(OWN_TIME_RUNS):
        text, _ = run_pinned(cmd, env_with(), "opt -passes=align-guard<deferred>",
                            os.path.join(t.work, "compile", "own.%s.txt" % os.path.basename(bc)))
        seconds.append(sum(v for name, v in time_passes_seconds(text).items()
                           if "AlignGuardPass" in name))
    return statistics.median(seconds)


def opt_instructions(t, bc):
    """Instructions opt -O2 executes on bc without the plugin and with it
    (callgrind, both at once, on the lane's CPU): {config: instructions}."""
    plugin = nodebug_plugin(t)
    procs = {}
    for name in ("base", "plugin"):
        out = os.path.join(t.work, "compile", "callgrind.O2.%s.%s" % (os.path.basename(bc), name))
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, t.opt,
               "-passes=default<O2>", "-disable-output", bc]
        env = env_with()
        if name == "plugin":
            cmd.insert(4, "-load-pass-plugin=" + plugin)
            env = env_with(ALIGNGUARD_PIPELINE="align-guard")
        procs[name] = (subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env=env, universal_newlines=True), out)
    res = {}
    for name, (p, out) in procs.items():
        err = p.stderr.read()
        if p.wait() != 0:
            sys.exit("bench: callgrind of opt failed (%s):\n%s" % (name, err[-2000:]))
        res[name] = callgrind_total(out)
    return res


def compile_instructions(t, label, bc, n):
    """{base, plugin}: the cost in instructions of INSTR_MODULES' module bc
    (n functions, `label` in words), opt -O2 under callgrind with and
    without the plugin."""
    r = opt_instructions(t, bc)
    log("  opt -O2 on %d %s: %d instructions without, %d with the plugin (%+.1f%%)"
        % (n, label, r["base"], r["plugin"], whole_cost(r)))
    return r


def compile_pairs(t, bc, pairs):
    """`pairs` pairs (even) of opt -O2 on bc without and with the plugin,
    from quads on the lane's CPU."""
    return pairs_of(pairs, lambda flip: opt_quad(t, bc, flip=flip))


def compile_time(n, samples, own, what="kernels"):
    """A module's compile-time figures from its pairs (compile_pairs) and
    align-guard's own time (own_time); what: the functions the module
    holds, in words: the median of the pairs' differences (cost), the
    medians of each configuration's runs. The cost is the pairs' own, not
    the difference of the two medians or of the fastest runs: the two runs
    of a pair share one CPU at the same time (quad), and with it the VM's
    slow spells; runs of different pairs may not."""
    base = statistics.median(s["base"][0] for s in samples)
    plug = statistics.median(s["plugin"][0] for s in samples)
    pairs = [s["plugin"][0] / s["base"][0] - 1 for s in samples]
    # Peak memory (Linux: KiB) does not depend on the machine's noise.
    rss_base = statistics.median(s["base"][1] for s in samples)
    rss_plug = statistics.median(s["plugin"][1] for s in samples)
    log("  opt -O2 on %d %s: %.2fs without, %.2fs with the plugin (sharing the CPU), "
        "pairs %+.1f%% .. %+.1f%%, align-guard itself %.3fs; peak memory %.0f MiB without, "
        "%.0f MiB with" % (n, what, base, plug, 100 * min(pairs), 100 * max(pairs), own,
                           rss_base / 1024, rss_plug / 1024))
    return dict(base=base, plugin=plug, own=own, runs=len(samples),
                cost=100 * statistics.median(pairs),
                rss_base=rss_base, rss_plugin=rss_plug,
                spread=[min(pairs), max(pairs)],
                samples=[{k: list(v) for k, v in s.items()} for s in samples])


def compile_control(t, bc, pairs):
    """The noise floor of compile_time on the lane's CPU: quads of opt -O2
    without the plugin on bc against itself (pairs of them, even): each
    pair's difference of the run in the plugin's place from the other."""
    diffs = [s["plugin"][0] / s["base"][0] - 1
             for s in pairs_of(pairs, lambda flip: opt_quad(t, bc, control=True, flip=flip))]
    log("  noise floor on CPU %d: opt -O2 against itself on %s, %d pairs: %+.1f%% .. %+.1f%%"
        % (lane_cpu(), os.path.basename(bc), pairs, 100 * min(diffs), 100 * max(diffs)))
    return dict(module=os.path.basename(bc), pairs=len(diffs), diffs=diffs, cpu=lane_cpu())


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------

def machine():
    model, cores, flags, mhz = "?", 0, [], "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, val = line.partition(":")
            key, val = key.strip(), val.strip()
            if key == "model name":
                model, cores = val, cores + 1
            elif key == "flags" and not flags:
                flags = [x for x in val.split() if re.match(r"^(sse4_2|avx|avx2|avx512f|fma)$", x)]
            elif key == "cpu MHz":
                mhz = val
    mem = "?"
    with open("/proc/meminfo") as f:
        m = re.search(r"MemTotal:\s+(\d+)", f.read())
        if m:
            mem = "%.0f GiB" % (int(m.group(1)) / 1024 / 1024)
    uname = subprocess.run(["uname", "-a"], stdout=subprocess.PIPE,
                           universal_newlines=True).stdout.strip()
    return dict(cpu=model, cores=cores, mhz=mhz, flags=" ".join(flags), memory=mem, uname=uname,
                timing_cpu=TIMING_CPU)


def git_head():
    p = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    return p.stdout.strip() or "?"


def ratio(a, b):
    return a / b if b else float("nan")


def case_rows(data):
    """Per case (kernel:size): each variant's instructions (where callgrind
    counted them) and median time, and their ratios to plain's."""
    ir, times = data.get("instructions", {}), data["times"]
    rows = {}
    for k in KERNELS:
        for size in data["sizes"][k["name"]]:
            key = "%s:%d" % (k["name"], size)
            t_med = {v: statistics.median(s) for v, s in times.get(key, {}).items()}
            r = dict(kernel=k["name"], size=size, elements=elements(k, size),
                     ir={}, t={}, ir_ratio={}, t_ratio={})
            for v in VARIANT_NAMES:
                if key in ir.get(v, {}):
                    r["ir"][v] = ir[v][key]
                    r["ir_ratio"][v] = ratio(ir[v][key], ir["plain"][key])
                if v in t_med:
                    r["t"][v] = t_med[v]
                    r["t_ratio"][v] = ratio(t_med[v], t_med["plain"])
            if "plain-again" in t_med:
                r["t_ratio"]["plain-again"] = ratio(t_med["plain-again"], t_med["plain"])
            rows[key] = r
    data["rows"] = rows
    return rows


def hot_loop_target(data):
    """Issue 5's hot-loop row: abort's and fallback's loops against plain's."""
    differing = ["%s (%s: %s)" % (k["name"], v, data["hot_loops"][k["name"]][v]["verdict"])
                 for k in KERNELS for v in ("abort", "fallback")
                 if data["hot_loops"][k["name"]][v]["verdict"] != "identical"]
    return dict(
        target="... and the hot loop's machine code unchanged (same vector instructions, aligned where plain's are)",
        measured="identical for every kernel" if not differing else "differs: " + "; ".join(differing),
        met=not differing), differing


def fallback_correct_target(data):
    """Misaligned input with fallback: bit-identical to plain, on every
    kernel (one that reports and aborts instead does not fall back)."""
    wrong = [key for key, vs in data["verify"].items() if vs.get("fallback-misaligned", "ok") != "ok"]
    no_fallback = [k["name"] for k in KERNELS if skipped(k, "fallback-misaligned")]
    return dict(
        target="Misaligned input, `fallback`: correct results",
        measured=("bit-identical to plain on every case it runs" if not wrong else
                  "WRONG: " + ", ".join(wrong)) +
                 "".join("; %s does not fall back: %s (the misaligned-input table)" % (
                     k, data["detect"][k]["fallback"]["what"]) for k in no_fallback),
        met=not wrong and not no_fallback)


def misaligned_throughput(big):
    """From the large cases: fallback's misaligned throughput against its
    aligned path's, and promise-free code's on the same misaligned data
    against fallback's (the limit): ([(ratio, row)], [ratio])."""
    tp = [(ratio(r["t"]["fallback"], r["t"]["fallback-misaligned"]), r) for r in big
          if "fallback-misaligned" in r["t"]]
    free = [ratio(r["t"]["recover-misaligned"], r["t"]["fallback-misaligned"]) for r in big
            if "fallback-misaligned" in r["t"] and "recover-misaligned" in r["t"]]
    return tp, free


def throughput_target(tp):
    """Misaligned input with fallback: at least 85% of the aligned path's
    throughput in every large case (tp: misaligned_throughput's first)."""
    low = [x for x in tp if x[0] < 0.85]
    worst_tp = min(tp, key=lambda x: x[0])
    return dict(
        target="Misaligned input, `fallback`: at least 85% of the aligned path's throughput "
               "from 64 Ki elements up",
        measured="worst %.0f%% (%s %s); below 85%% in %d of %d cases" % (
            100 * worst_tp[0], worst_tp[1]["kernel"],
            case_label(find_kernel(worst_tp[1]["kernel"]), worst_tp[1]["size"]), len(low), len(tp)),
        met=not low)


def analyse(data):
    """Ratios per case and variant, and the targets of issue 5 item 3."""
    rows = case_rows(data)
    targets = []
    big = [r for r in rows.values() if r["elements"] >= 64 * KI]

    # 1. aligned input, abort and fallback: <= 1% more instructions from
    #    64 Ki elements up, and the same hot loop.
    worst = max(((r["ir_ratio"][v] - 1, v, r) for r in big for v in ("abort", "fallback")
                 if v in r["ir_ratio"]), key=lambda x: x[0])
    hot_loop, differing = hot_loop_target(data)
    loops_same = not differing
    targets.append(dict(
        target="Aligned input, `abort` and `fallback`: at most 1% more instructions than plain -O3 "
               "from 64 Ki elements up",
        measured="worst: %+.4f%% (%s, %s %s)" % (100 * worst[0], worst[1], worst[2]["kernel"],
                                                  case_label(find_kernel(worst[2]["kernel"]), worst[2]["size"])),
        met=worst[0] <= 0.01))
    targets.append(hot_loop)

    # 2. misaligned input, fallback: correct, and >= 85% of the aligned
    #    path's throughput from 64 Ki elements up.
    correct = fallback_correct_target(data)
    targets.append(correct)
    tp, free = misaligned_throughput(big)
    targets.append(throughput_target(tp))

    # 3. >= 10x less instruction overhead than UBSan's alignment check, on
    #    every kernel: per case, the larger of abort's and fallback's
    #    overhead against the smaller of the two UBSan builds'.
    per_kernel = {}
    for r in rows.values():
        if not all(v in r["ir"] for v in ("abort", "fallback", "ubsan", "ubsan-trap")):
            continue  # not counted (uncounted)
        ag = max(r["ir"][v] - r["ir"]["plain"] for v in ("abort", "fallback"))
        ub = min(r["ir"][v] - r["ir"]["plain"] for v in ("ubsan", "ubsan-trap"))
        if ub <= 0:
            f = 0.0  # UBSan costs nothing here: nothing to be 10x less than
        elif ag <= 0:
            f = float("inf")
        else:
            f = ub / ag
        r["ubsan_factor"] = f
        r["ag_overhead"], r["ubsan_overhead"] = ag, ub
        if r["kernel"] not in per_kernel or f < per_kernel[r["kernel"]][0]:
            per_kernel[r["kernel"]] = (f, r)
    missed = {k: v for k, v in per_kernel.items() if v[0] < 10}
    targets.append(dict(
        target="At least 10x less instruction overhead than UBSan's alignment check, on every kernel",
        measured="; ".join("%s: %s (%s: +%d vs +%d instructions)" % (
            k, "%.1fx" % f if f != float("inf") else "inf", case_label(find_kernel(k), r["size"]),
            r["ag_overhead"], r["ubsan_overhead"])
            for k, (f, r) in sorted(per_kernel.items())),
        met=not missed))

    # Issue 13: per-place instructions, stencil3x3_rows, compile time +5%.
    data["targets13"] = issue13_targets(data)

    # 4. compile time (not measured in a --skip-compile run).
    ct = data.get("compile") or {}
    ns = sorted(ct)
    own_pct, total_pct, growth = {}, {}, []
    if ct:
        own_pct = {n: 100 * ct[n]["own"] / ct[n]["base"] for n in ns}
        total_pct = {n: whole_cost(ct[n]) for n in ns}
        targets.append(dict(
            target="Plugin compile-time cost at most 2% of opt -O2: the align-guard pass's own time",
            measured=", ".join("%d kernels %.2f%%" % (n, own_pct[n]) for n in ns) +
                     " (the pass's time from runs of it alone, opt -O2's from runs that shared "
                     "the CPU, about a tenth above a lone run's: about a tenth low)",
            met=all(v <= 2 for v in own_pct.values())))
        targets.append(dict(
            target="... the whole cost (opt -O2 with the plugin minus without: the pass and what "
                   "its checks cost the passes after it)",
            measured=", ".join("%d kernels %+.1f%%" % (n, total_pct[n]) for n in ns),
            met=all(v <= 2 for v in total_pct.values())))
        pi = data["pass_instructions"]
        growth = [(ns[i], ns[i + 1], ct[ns[i + 1]]["own"] / ct[ns[i]]["own"],
                   added_seconds(ct[ns[i + 1]]) / added_seconds(ct[ns[i]])
                   if added_seconds(ct[ns[i]]) else float("nan"),
                   pi[ns[i + 1]] / pi[ns[i]], ct[ns[i + 1]]["base"] / ct[ns[i]]["base"])
                  for i in range(len(ns) - 1)]
        targets.append(dict(
            target="Linear growth: 4x the kernels, at most 4.4x the plugin time (the pass's CPU time)",
            measured="; ".join("%d -> %d kernels: x%.2f (opt -O2 itself x%.2f)" % (g[0], g[1], g[2], g[5])
                               for g in growth),
            met=all(g[2] <= 1.1 * g[1] / g[0] for g in growth)))
        targets.append(dict(
            target="... the same in instructions executed by the pass (callgrind; repeatable)",
            measured="; ".join("%d -> %d kernels: x%.3f" % (g[0], g[1], g[4]) for g in growth),
            met=all(g[4] <= 1.1 * g[1] / g[0] for g in growth)))
    data["targets"] = targets
    data["growth"] = growth

    # The summary a user decides from (write_results opens with it; the
    # plot's first panel shows its per-kernel numbers).
    aligned = [r["ir_ratio"]["abort"] - 1 for r in big if "abort" in r["ir_ratio"]]
    aligned_t = [r["t_ratio"]["abort"] - 1 for r in big if "abort" in r["t_ratio"]]
    factors = [f for f, _ in per_kernel.values()]
    data["summary"] = dict(
        aligned_worst=100 * worst[0], aligned_median=100 * statistics.median(aligned),
        aligned_time_median=100 * statistics.median(aligned_t) if aligned_t else None,
        loops_same=loops_same, differing=differing,
        ubsan_min=min(factors), ubsan_median=statistics.median(factors),
        ubsan_kernels=len(factors),
        fallback_correct=correct["met"],
        fallback_tp_median=100 * statistics.median(x[0] for x in tp),
        fallback_vs_free_median=100 * statistics.median(free) if free else float("nan"),
        fallback_vs_free_worst=100 * min(free) if free else float("nan"),
        own_max=max(own_pct.values(), default=None), total_min=min(total_pct.values(), default=None),
        total_max=max(total_pct.values(), default=None), largest=ns[-1] if ns else None,
        per_kernel={k["name"]: dict(
            aligned=100 * max((r["ir_ratio"].get("abort", 1) - 1 for r in big
                               if r["kernel"] == k["name"]), default=0.0),
            ubsan=100 * max((r["ir_ratio"].get("ubsan", 1) - 1 for r in big
                             if r["kernel"] == k["name"]), default=0.0))
            for k in KERNELS})


def analyse_native(data):
    """A --native run's results (no valgrind, so no instruction counts):
    the hot loops, what misaligned input does, and time ratios."""
    rows = case_rows(data)
    big = [r for r in rows.values() if r["elements"] >= 64 * KI]
    hot_loop, differing = hot_loop_target(data)
    correct = fallback_correct_target(data)
    tp, free = misaligned_throughput(big)
    aligned_t = [r["t_ratio"][v] - 1 for r in big for v in ("abort", "fallback") if v in r["t_ratio"]]
    noise = [r["t_ratio"]["plain-again"] - 1 for r in big if "plain-again" in r["t_ratio"]]
    data["targets"] = [hot_loop, correct] + ([throughput_target(tp)] if tp else [])
    data["targets13"] = []
    data["summary"] = dict(
        loops_same=not differing, differing=differing, fallback_correct=correct["met"],
        aligned_time_median=100 * statistics.median(aligned_t) if aligned_t else float("nan"),
        aligned_time_worst=100 * max(aligned_t) if aligned_t else float("nan"),
        noise=(100 * min(noise), 100 * max(noise)) if noise else (float("nan"),) * 2,
        fallback_tp_median=100 * statistics.median(x[0] for x in tp) if tp else float("nan"),
        fallback_vs_free_median=100 * statistics.median(free) if free else float("nan"),
        fallback_vs_free_worst=100 * min(free) if free else float("nan"))


def per_place(data):
    """Issue 13's per-place table: for each kernel with entry-point promises
    and each action, the instructions one call adds on aligned input at the
    smallest size (callgrind, the action's build minus plain), against the
    limit per place, k-1 ors + test + branch = k+1 with one more allowed,
    summed over the places: k + P, met at k + 2P at most, where k is the
    number of pointers the build checks (its `checked at site` remarks) and
    P the places (the distinct sites)."""
    rows = []
    ir = data["instructions"]
    for k in KERNELS:
        if k.get("entry") is False:
            continue
        key = "%s:%d" % (k["name"], data["sizes"][k["name"]][0])
        for action in PLACE_ACTIONS:
            row = dict(kernel=k["name"], action=action, size=data["sizes"][k["name"]][0])
            if action == "return" and not k.get("returns_int"):
                row["na"] = "n/a: returns no integer"
                rows.append(row)
                continue
            rem = data["remarks"].get("%s/%s" % (action, k["name"]), [])
            if key not in ir.get(action, {}):
                row["na"] = "not run"
                rows.append(row)
                continue
            checks = len(rem)
            places = len({r[1] for r in rem})
            row.update(k_checked=checks, places=places,
                       placements=sorted({r[2] for r in rem}),
                       added=ir[action][key] - ir["plain"][key], limit=checks + places)
            row["met"] = checks > 0 and row["added"] <= row["limit"] + places
            rows.append(row)
    return rows


def issue13_targets(data):
    """The kernel-side targets of issue 13 for this major and target, and
    the compile-time one when compile time was measured."""
    out = []
    pp = per_place(data)
    data["per_place"] = pp
    measured = [r for r in pp if "na" not in r]
    missed = [r for r in measured if not r["met"]]
    out.append(dict(
        key="per-place",
        target="Per-place instructions on aligned input at the limit (k-1 ors + test + branch, "
               "at most one more), every kernel with entry-point promises, every action",
        measured=("%d of %d met" % (len(measured) - len(missed), len(measured))) +
                 ("; over: " + ", ".join("%s %s %+d vs limit %d (k=%d, %d place%s)" % (
                     r["kernel"], r["action"], r["added"], r["limit"], r["k_checked"], r["places"],
                     "s" if r["places"] != 1 else "") for r in missed) if missed else ""),
        met=not missed))
    rows = data["rows"]
    key = "stencil3x3_rows:%d" % (64 * KI)
    if key in rows:
        r = rows[key]
        over = {v: 100 * (r["ir_ratio"][v] - 1) for v in ("abort", "fallback") if v in r["ir_ratio"]}
        fb = data["detect"]["stencil3x3_rows"]["fallback"]["what"]
        ok_fb = "completes, correct" in fb
        out.append(dict(
            key="stencil-rows",
            target="`stencil3x3_rows` within +0.1% instructions at 64 Ki (abort, fallback) and "
                   "falling back correctly on misaligned input",
            measured="%s; misaligned with fallback: %s" % (
                ", ".join("%s %+.3f%%" % x for x in over.items()), fb),
            met=all(v <= 0.1 for v in over.values()) and ok_fb))
    def cost_target(key, target, costs):
        """costs: [(module, {base, plugin})]; met at +5% or less."""
        pct = [(label, whole_cost(r)) for label, r in costs]
        out.append(dict(key=key, target=target,
                        measured=", ".join("%s %+.1f%%" % x for x in pct),
                        met=all(v <= 5 for _, v in pct)))

    ct, tv = data.get("compile") or {}, data.get("compile_tvm") or {}
    if ct or tv:
        cost_target("compile5",
                    "Whole `opt -O2` cost at most +5% on promise-dense modules (1k, 4k, 16k "
                    "kernels) and on the TVM-shaped modules",
                    [("%d kernels" % n, c) for n, c in sorted(ct.items())]
                    + [("TVM-shaped %d functions" % n, c) for n, c in sorted(tv.items())])
    ci = data.get("compile_instr") or {}
    if ci:
        cost_target("compile5-instr",
                    "Whole `opt -O2` cost at most +5%, in instructions executed (callgrind: "
                    "repeatable), on a promise-dense and a TVM-shaped module", list(ci.items()))
    return out


def hot_loop_summary(sm):
    return "**The hot loop is unchanged**: " + (
        "the vectorised loop's machine code is identical to plain -O3's for every kernel "
        "(`abort` and `fallback`)." if sm["loops_same"] else
        "it differs in " + "; ".join(sm["differing"]) + ".")


def summary_lines(data):
    """The few lines a user decides from: cost on aligned input, the hot
    loop, against UBSan, misaligned input with fallback, compile time."""
    sm = data["summary"]
    lines = [
        "**Aligned input costs (almost) nothing**: `abort` adds a median %+.2f%% instructions "
        "(worst %+.2f%%) over plain -O3 from 64 Ki elements up%s." % (
            sm["aligned_median"], sm["aligned_worst"],
            "" if sm["aligned_time_median"] is None else
            ", median time %+.1f%% (noise on this machine is about as large)" % sm["aligned_time_median"]),
        hot_loop_summary(sm),
        "**Against UBSan's -fsanitize=alignment**: on %d kernels, AlignGuard's instruction "
        "overhead is a median %.0fx smaller; where -O3 proves UBSan's per-access checks away, "
        "both pay about one check per call and AlignGuard can be the dearer (worst kernel: "
        "UBSan's overhead %.1fx AlignGuard's, a few instructions per call)." % (
            sm["ubsan_kernels"], sm["ubsan_median"], sm["ubsan_min"]),
        "**Misaligned input, `fallback`**: %s; from 64 Ki elements up, median %.0f%% of the "
        "aligned path's throughput, and median %.0f%% (worst %.0f%%) of promise-free code on "
        "the same misaligned data (`recover-misaligned`), which is the limit: the unaligned copy "
        "is promise-free code, and the split cache lines of misaligned data cost the rest, not "
        "AlignGuard." % (
            "right answers on every kernel" if sm["fallback_correct"]
            else "right answers where it falls back (one kernel reports and aborts instead; "
                 "the targets say which)", sm["fallback_tp_median"],
            sm["fallback_vs_free_median"], sm["fallback_vs_free_worst"]),
    ]
    if sm["own_max"] is not None:
        lines.append(
            "**Compile time**: the pass itself takes at most %.2f%% of `opt -O2`; with what its "
            "checks cost the passes after it, %+.0f%% to %+.0f%% on modules of small generated "
            "kernels (up to %d), less on real code with larger functions." % (
                sm["own_max"], sm["total_min"], sm["total_max"], sm["largest"]))
    return lines


def find_kernel(name):
    return next(k for k in KERNELS if k["name"] == name)


def fmt_ratio(x):
    return "%.4f" % x if abs(x - 1) < 0.1 else "%.2f" % x


def runs_text(data):
    return ", ".join("%d pairs of %d kernels" % (r["runs"], n)
                     for n, r in sorted(data["compile"].items()))


def spread_text(c):
    """The lowest and highest pair's difference."""
    lo, hi = c.get("spread") or [float("nan")] * 2
    return "%+.1f%% .. %+.1f%%" % (100 * lo, 100 * hi)


def lanes_text(data):
    """What each CPU's lane ran (run_lanes), one job after the other."""
    return "; ".join("CPU %d: %s" % (l["cpu"], ", ".join("%s (%.0fs)" % (n, sec)
                                                         for n, sec in l["jobs"]))
                     for l in data.get("lanes") or [])


def control_text(controls):
    """The noise floors (compile_control), one per lane's CPU."""
    return ("opt -O2 without the plugin against itself on %s, in quads as the "
            "measurement's, in each lane: the run in the plugin's place took %s more CPU "
            "time than the other"
            % (controls[0]["module"], ", ".join(
                "%+.1f%% .. %+.1f%% on CPU %d (%d pairs)"
                % (100 * min(c["diffs"]), 100 * max(c["diffs"]), c["cpu"], c["pairs"])
                for c in controls)))


def memory_text(c):
    """Peak resident memory of opt -O2 without and with the plugin."""
    if "rss_base" not in c:
        return "not measured"
    return "%.0f, %.0f (%+.1f%%)" % (c["rss_base"] / 1024, c["rss_plugin"] / 1024,
                                     100.0 * (c["rss_plugin"] / c["rss_base"] - 1))


def memory_growth_text(ct):
    """How much more memory opt -O2 holds with the plugin, per function."""
    parts = []
    for n in sorted(ct):
        c = ct[n]
        if "rss_base" in c:
            parts.append("%d: %+.0f MiB, %.1f KiB a function" % (
                n, (c["rss_plugin"] - c["rss_base"]) / 1024,
                (c["rss_plugin"] - c["rss_base"]) / n))
    return "; ".join(parts)


def write_compile(data, a):
    a("## Compile time (items 2 and 4)")
    a("")
    a("CPU seconds (user + system), medians (%s); a pair is a run without the plugin and "
      "a run with it at the same time, both on one CPU (on this VM the scheduler put "
      "consecutive processes on alternating CPUs, which ran the same command up to 40%% apart "
      "at times; each pair on one CPU, in lanes, one per CPU, while the other CPU ran another "
      "job: the lanes are listed below the table), from a quad: two chains of processes at once, one running opt -O2 without "
      "the plugin and then with it, the other with it and then without, so that both chains "
      "end together and every process shares the CPU all its life. Sharing costs each process "
      "about a tenth more CPU time than running alone (so the seconds here are above a lone "
      "run's), but the VM's slow spells, in which a process takes up to a third more CPU time, "
      "fall on both runs of a pair, where they fell on one run of a pair one after the other "
      "(bench/README.md). The whole cost is the median of the pairs' differences; "
      "align-guard's own time is its "
      "`-time-passes` line, the median of %d runs of the pass alone, `opt -passes='align-guard<deferred>'` "
      "(what the pipeline runs at its start, on the same IR; the pairs run without "
      "`-time-passes`, whose timers cost opt a third more); the pass's instructions from one "
      "callgrind run of `opt -passes=align-guard`."
      % (runs_text(data), OWN_TIME_RUNS))
    a("")
    a("| kernels | opt -O2 (s) | with the plugin (s) | whole cost | pairs (lowest .. highest) | align-guard's own time (s) | own / opt -O2 (own: alone; opt: sharing) | align-guard's instructions | peak memory (MiB): without, with |")
    a("|---|---|---|---|---|---|---|---|---|")
    ct = data["compile"]
    for n in sorted(ct):
        c = ct[n]
        a("| %d | %.2f | %.2f | %+.1f%% | %s | %.3f | %.2f%% | %s | %s |" % (
            n, c["base"], c["plugin"], whole_cost(c),
            spread_text(c), c["own"], 100 * c["own"] / c["base"],
            "{:,}".format(data["pass_instructions"][n]), memory_text(c)))
    a("")
    if data.get("compile_control"):
        a("- Noise floor: %s." % control_text(data["compile_control"]))
    a("- Lanes (each CPU's jobs, one after the other, and their wall-clock seconds): %s."
      % lanes_text(data))
    for g in data["growth"]:
        a("- %d -> %d kernels (x%.0f): align-guard's own time x%.2f, its instructions x%.3f, "
          "the whole cost x%.2f, opt -O2 itself x%.2f." % (g[0], g[1], g[1] / g[0], g[2], g[4],
                                                           g[3], g[5]))
    if data.get("compile_passes"):
        a("- Where the whole cost goes (largest -time-passes differences, %d kernels, one run "
          "each): %s." % (data["compile_passes_kernels"],
                          ", ".join("%s %+.2fs" % x for x in data["compile_passes"])))
    a("")
    tv = data.get("compile_tvm") or {}
    if tv:
        a("TVM-shaped modules (`bench/gen_tvm_module.py`: packed functions with TVM's signature "
          "that unpack DLTensors, check them like TVM's codegen, promise "
          "`__builtin_assume_aligned(data, 64)` for 3 or 4 tensors each and run a small loop), "
          "the same measurement:")
        a("")
        a("| functions | opt -O2 (s) | with the plugin (s) | whole cost | pairs (lowest .. highest) | align-guard's own time (s) | pairs | peak memory (MiB): without, with |")
        a("|---|---|---|---|---|---|---|---|")
        for n in sorted(tv):
            c = tv[n]
            a("| %d | %.2f | %.2f | %+.1f%% | %s | %.3f | %d | %s |" % (
                n, c["base"], c["plugin"], whole_cost(c),
                spread_text(c), c["own"], c["runs"], memory_text(c)))
        a("")
    ci = data.get("compile_instr") or {}
    if ci:
        a("The same cost in instructions executed (callgrind, whole `opt -O2`, one run each: "
          "repeatable, unlike the CPU times above), on modules small enough for callgrind:")
        a("")
        a("| module | opt -O2 (instructions) | with the plugin | whole cost |")
        a("|---|---|---|---|")
        for label, r in ci.items():
            a("| %s | %d | %d | %+.1f%% |" % (label, r["base"], r["plugin"], whole_cost(r)))
        a("")


def write_thirdparty(data, a):
    tp = data["thirdparty"]
    a("## Third-party compile time (issue 13, item 5)")
    a("")
    a("`clang -O2 -c%s` of each translation unit in `bench/thirdparty/` (C++: `clang++ "
      "-std=c++17`, Debian's headers), without and with `-fpass-plugin=AlignGuard.so` "
      "(`ALIGNGUARD_PIPELINE=align-guard<abort>`, as the kernels' abort build), in pairs "
      "whose two compiles share one CPU at once (quads, as for `opt -O2` above); CPU time "
      "(user + system) of each compile, medians, and the median pair's difference; text and "
      "data sizes from `llvm-size` of the object (text: code and read-only data, where the "
      "plugin's packed descriptor tables go; data: writable data, `.data.rel.ro` included, "
      "where lone descriptors, which hold pointers, go in position-independent code); "
      "checks: the pass's `checked at site` remarks." % (
          " " + data["cflags"] if data["cflags"] else ""))
    a("")
    a("| translation unit | clang -O2 (s) | with the plugin (s) | cost | text (bytes) | with the plugin | data (bytes) | with the plugin | text + data growth | checks | pairs |")
    a("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, c in tp.items():
        a("| %s (`%s`) | %.3f | %.3f | %+.1f%% | %d | %d | %d | %d | %s | %d | %d |" % (
            name, c["src"], c["base"], c["plugin"], whole_cost(c),
            c["text_base"], c["text_plugin"], c["data_base"], c["data_plugin"],
            size_growth_text(c), c["checks"], c["runs"]))
    a("")


def size_growth_text(c):
    """A third-party object's growth with the plugin: text and data
    together, in percent and bytes."""
    base = c["text_base"] + c["data_base"]
    added = c["text_plugin"] + c["data_plugin"] - base
    return "%+.1f%% (%+d bytes)" % (100 * added / base, added)


def explain13(data):
    """Why each missed issue-13 target is missed, from the numbers."""
    why = []
    for tg in data["targets13"]:
        if tg["met"]:
            continue
        if tg["key"] == "per-place":
            pp = [r for r in data["per_place"] if "na" not in r and not r["met"]]
            rec = [r for r in pp if r["action"] == "recover"]
            other = [r for r in pp if r["action"] != "recover"]
            if other:
                why.append("Per-place instructions over the limit (%s): the entry's check itself is "
                           "at the limit (the failing side leaves by a tail call, "
                           "`align-guard-cold-exits`); what is over is code the optimiser or the "
                           "register allocator laid out differently around the kernel's loops "
                           "(other spills in a loop nest, another loop set-up, a code-alignment nop "
                           "executed before a loop; bench/README.md takes gemm apart), counted per call at "
                           "the smallest size; the hot loop itself is the same (the hot-loop "
                           "target). The assembly is in the work directory, `<build>/<kernel>.s`."
                           % ", ".join("%s %s %+d vs %d" % (r["kernel"], r["action"], r["added"],
                                                             r["limit"]) for r in other))
            if rec:
                why.append("`recover` (%s): where recover cannot rerun a failing call in its "
                           "recover copy (a store or a call that writes runs before the check, "
                           "or the check is not in an entry point), it drops the promises it "
                           "checks in the kernel itself, which is then promise-free code, "
                           "compiled differently from plain's (on SSE2 an unaligned vector operand "
                           "cannot be folded into an arithmetic instruction and takes a separate "
                           "load; with AVX the loop's set-up and remainder differ); where it "
                           "reruns, the arguments the copy is called with stay live until the "
                           "last check (a kernel that unpacks its arguments first, as TVM's "
                           "packed functions do, may keep them in callee-saved registers: pushes "
                           "at entry), and what else is over is laid out around the kernel's "
                           "loops, as for the other actions: not the check's cost, but counted "
                           "here as measured."
                           % ", ".join(
                               "%s %+d" % (r["kernel"], r["added"]) for r in rec))
        elif tg["key"] == "stencil-rows":
            falls_back = "completes, correct" in tg["measured"]
            why.append("`stencil3x3_rows`: %s. Its promises are made per row inside the loop; the "
                       "build %s. What is over +0.1%% is per-row code around the inner loop that "
                       "differs from plain's (the row loop's register allocation and address "
                       "arithmetic with the promises kept behind the hoisted check), not a check "
                       "per row." % (
                           tg["measured"],
                           "checks them before the loop (the first and second row's addresses), "
                           "before any store, so fallback reruns the call from the start"
                           if falls_back else
                           "does not check them before the first store (the pass's "
                           "`fallback-unsafe` warning), so a misaligned row aborts"))
        elif tg["key"] in ("compile5", "compile5-instr"):
            timed = tg["key"] == "compile5"
            why.append("Whole compile-time cost above +5%% (%s): %s. The build runs align-guard "
                       "deferred (one marker call per place until the end of the pipeline, "
                       "README: deferred checks), so what is left is the pass's own work, the "
                       "marker calls the passes after it still visit (InstCombine, the "
                       "inliner's cost model), and, at the end, the expanded checks, cold "
                       "blocks and site descriptors (the verifier, module teardown), in "
                       "functions that are small (a few pointers and one loop).%s" % (
                           "CPU time" if timed else "instructions executed", tg["measured"],
                           (" CPU times: %s, each pair's two runs sharing one CPU at once "
                            "(noise floor: %s); the instruction counts beside them are "
                            "repeatable. Largest "
                            "differences (-time-passes, %s kernels): %s." % (
                                runs_text(data),
                                control_text(data["compile_control"])
                                if data.get("compile_control") else "not measured",
                                data.get("compile_passes_kernels", "?"),
                                ", ".join("%s %+.2fs" % x for x in data.get("compile_passes") or [])
                                or "not measured")) if timed else ""))
            if timed and data.get("compile"):
                why.append("CPU time grows beyond the instructions executed: the peak memory "
                           "of opt -O2 grows with the plugin by about the same amount per "
                           "function at every size (%s), and CPU time with it. "
                           "bench/README.md (compile time) has the measurements: the added "
                           "instructions and memory are spread over several pieces "
                           "(align-guard's own work, under a third of the instructions, most "
                           "of it descriptors and planning; the expanded checks, about 40%% "
                           "of the added peak; the guard notes, which take the context's map "
                           "of instructions with metadata past a doubling at every size here, "
                           "about a quarter of it; the passes after the expansion; the site "
                           "descriptors: one constant table per function, 3 to 4 entries "
                           "here). The descriptor tables were the largest piece of the CPU "
                           "time: with a dozen constants per descriptor, a throwaway build "
                           "with one table per module took 1.5 to 2.5 points less CPU time "
                           "than the plugin in quads on both majors. Since then each table "
                           "is packed, one pointer-free block of bytes with its strings "
                           "(descriptor version 3), which took 0.6 to 1.9 points (median "
                           "1.35) off LLVM 22's cost at 4000 kernels, and 5 of its 20 MiB "
                           "of added peak memory (bench/README.md, 2026-12-04, fifth "
                           "session); what is left is spread over the other pieces."
                           % memory_growth_text(data["compile"]))
    return why


def target_table(a, targets):
    a("| target | measured | met |")
    a("|---|---|---|")
    for tg in targets:
        a("| %s | %s | %s |" % (tg["target"], tg["measured"], "yes" if tg["met"] else "**no**"))


def write_misaligned(data, a):
    """What each build does on misaligned input (main's detect), with examples."""
    a("## Misaligned input: what each build does")
    a("")
    a("Each kernel called once (1 Ki elements; GEMM n=64) with every buffer 4 bytes past "
      "a 64-byte boundary, in a process of its own; the result is compared with plain's on "
      "aligned buffers.")
    a("")
    builds = ["plain", "abort", "fallback", "recover", "ubsan", "ubsan-trap"]
    a("| kernel | " + " | ".join(builds) + " |")
    a("|---" * (len(builds) + 1) + "|")
    for k in KERNELS:
        d = data["detect"][k["name"]]
        a("| %s | %s |" % (k["name"], " | ".join(d[b]["what"] for b in builds)))
    a("")
    examples = [(k["name"], b, data["detect"][k["name"]][b]["message"]) for k in KERNELS
                for b in ("abort", "ubsan") if data["detect"][k["name"]][b]["message"]][:4]
    if examples:
        a("For example:")
        a("")
        a("```")
        for _, _, msg in examples:
            a(re.sub(r"0x[0-9a-f]+", "0x...", msg.replace(ROOT + "/", "")))
        a("```")
    a("")


def hot_loop_line(data, k):
    """One kernel's hot loop in every build against plain's."""
    hl = data["hot_loops"][k["name"]]
    return "Hot loop of `%s` against plain's (plain's aligned accesses: %s): %s." % (
        k.get("loop_fn", k["name"]), hl["abort"]["plain_aligned"] or "none",
        ", ".join("%s %s" % (b, hl[b]["verdict"]) for b in BUILDS if b != "plain"))


def write_header(data, a, summary):
    """The title, the command and the machine, compiler and kernels a run
    used, and the summary (lines) a user decides from."""
    m = data["machine"]
    a("# AlignGuard benchmark results")
    a("")
    a("Generated by `%s` on %s in %.1f minutes; do not edit (the command rewrites this file%s)."
      % (data["command"], data["date"], data["elapsed_min"],
         "" if data.get("native") else " and `overhead.png`"))
    a("")
    a("- Machine: %s, %d logical CPUs, %s MHz, %s memory; the CPU has %s (%s)" % (
        m["cpu"], m["cores"], m["mhz"], m["memory"], m["flags"],
        "the kernels are built with `%s`" % data["cflags"] if data["cflags"] else
        "the kernels are built for baseline x86-64 and use none of them"))
    a("- `uname -a`: `%s`" % m["uname"])
    a("- Compiler: %s (`/usr/lib/llvm-%d/bin`); AlignGuard checkout `%s`; plugin %s, "
      "runtime %s, copied at the start and used for the whole run" % (
          data["clang_version"], data["llvm"], data["git"], data["snapshot"]["plugin"],
          data["snapshot"]["runtime"]))
    a("- Kernels: `bench/kernels/*.c`, each built with `clang -O3 -fPIC%s`%s, one shared "
      "library per build, all loaded into one driver process (`bench/driver.c`)." % (
          " " + data["cflags"] if data["cflags"] else "",
          "" if data["cflags"] else " for the default target (x86-64 with SSE2: 16-byte "
          "vectors, so `movaps`/`movapd` and packed operations with a memory operand need "
          "16-byte alignment)")
      + (" **Quick run** (`--quick`): fewer sizes and repetitions." if data["quick"] else
         " **Reduced run** (`--reduced`): fewer sizes and repetitions than the default target's."
         if data.get("reduced") else ""))
    if data.get("native"):
        a("")
        a("**Native run** (`--native`): no valgrind (it cannot execute AVX-512 "
          "instructions), so there are no instruction counts: each build's hot loop against "
          "plain's, what misaligned input does, and the timing driver's bit-for-bit "
          "verification and time ratios (medians of wall-clock samples on a shared VM).")
    a("")
    a("## Summary")
    a("")
    for line in summary:
        a("- " + line)
    a("")


def write_results(data, path):
    rows = data["rows"]
    L = []
    a = L.append
    write_header(data, a, summary_lines(data))
    a("## Targets (issue 5, item 3)")
    a("")
    target_table(a, data["targets"])
    a("")
    a("Why the missed ones are missed:")
    a("")
    for line in data["why"]:
        a("- " + line)
    a("")
    a("## Targets (issue 13, this major and target)")
    a("")
    target_table(a, data["targets13"])
    a("| Every hot loop identical to plain's (abort, fallback) | the issue-5 row above | %s |" % (
        "yes" if data["summary"]["loops_same"] else "**no**"))
    a("")
    for line in data["why13"]:
        a("- " + line)
    a("")
    a("### Per-place instructions on aligned input (issue 13)")
    a("")
    a("Instructions one call adds on aligned input at the smallest size (callgrind: the action's "
      "build minus plain, the same driver code around both). k: the pointers the build checks, "
      "counted from its `checked at site N` remarks (`-Rpass=align-guard`, not hard-coded); "
      "places (P): the distinct sites among them; limit: per place k-1 ors + test + branch, "
      "summed: k + P, met when the call adds at most one more per place (k + 2P). `return` is `align-guard<return=-1>`, built only for a "
      "kernel that returns an integer. `stencil3x3_rows` is left out: its promises are made "
      "per row inside the loop (its own target).")
    a("")
    a("| kernel | action | k (checked pointers) | places | placement | added instructions | limit (+1 per place allowed) | met |")
    a("|---|---|---|---|---|---|---|---|")
    for r in data["per_place"]:
        if "na" in r:
            a("| %s | %s | - | - | - | %s | - | n/a |" % (r["kernel"], r["action"], r["na"]))
        else:
            a("| %s | %s | %d | %d | %s | %+d | %d (+1) | %s |" % (
                r["kernel"], r["action"], r["k_checked"], r["places"], ", ".join(r["placements"]),
                r["added"], r["limit"], "yes" if r["met"] else "**no**"))
    a("")
    a("Other observations:")
    a("")
    for line in data["observations"]:
        a("- " + line)
    a("")
    a("## How it was measured")
    a("")
    a("Variants (each kernel compiled separately per build; the misaligned variants reuse a "
      "build on buffers that start 4 bytes past a 64-byte boundary):")
    a("")
    for v in VARIANT_NAMES:
        a("- `%s`: %s" % (v, VARIANT_DESC[v]))
    a("")
    tm = data["timing"]
    a("- **Instructions**: `valgrind --tool=callgrind --collect-atstart=no "
      "--toggle-collect=bench_region --dump-after=bench_region`, one process per variant, one "
      "call per case, every size. `bench_region` is the driver's function around one kernel "
      "call, so the count is the kernel (with its checks, its fallback dispatch and any runtime "
      "call) plus the same few driver instructions for every variant; buffer set-up is not "
      "counted. The first call of each kernel in a process is an uncounted warm-up (the "
      "runtime's one-time set-up). Counts are exact and repeatable.")
    a("- **Time**: one driver process loads every variant; per case it verifies each "
      "variant's output against plain's (bit for bit: every kernel's result is exact in any "
      "evaluation order), then runs %d repetitions (fewer, but at least 5, when a case would "
      "take more than %.0f s), each calling every variant in a rotating order, each sample "
      "long enough to take about %g ms (several calls); the median per variant is "
      "reported, as a ratio to plain's median. Wall-clock time on a noisy 2-core machine: "
      "the last column times plain's own library a second time, under another name, in the "
      "same rotation; its distance from 1 is the noise of that row. Instructions are the "
      "repeatable measure."
      % (tm["reps"], tm["budget_ms"] / 1000, tm["sample_ms"]))
    a("- **Code size**: `llvm-nm -S` of each build's library: the kernel's functions "
      "(for the TVM kernel, the wrapper and its compute function), `+ N` the unaligned "
      "copies `fallback` adds.")
    a("- **Hot loop**: the innermost loop with the most packed vector instructions (a scalar `ss`/`sd` operation on an xmm register does not count) in each build's "
      "assembly of the kernel, compared with plain's using the parsing and register "
      "renaming of `tests/tools/compare-hot-loop.py`: the same instructions up to register "
      "names, the same aligned accesses (`movaps`/`movapd`, or a packed SSE operation with a "
      "memory operand). `plain's aligned accesses` shows that the promise does give plain "
      "-O3 aligned vector code.")
    if data.get("compile"):
      a("- **Compile time**: `bench/gen_compile_module.py` writes N kernels (three or four "
      "pointer parameters each, promises as align_value parameters, __builtin_assume_aligned "
      "with and without offset, and legacy `__builtin_assume(p %% 64 == 0)`, a loop to "
      "vectorise); `clang -O2 -Xclang -disable-llvm-passes` makes the IR that clang -O2 hands "
      "to its pipeline; then `opt -passes='default<O2>' -disable-output`, without "
      "the plugin and with `-load-pass-plugin` (which runs `align-guard` at pipeline start), "
      "in pairs whose two runs share one CPU at once, two pairs at a time (quads: one chain "
      "runs without and then with the plugin, the other with and then without) (%s); CPU "
      "time (user + system) of each "
      "process, medians, the median pair's difference as the cost, and the lowest and highest pair's "
      "difference; as a noise floor, the same with opt -O2 without the plugin in both places; the "
      "pass's own time is its `-time-passes` line, the median of %d runs of the pass alone, `opt "
      "-passes='align-guard<deferred>'`, what the pipeline runs at its start on the same IR "
      "(the pairs run without `-time-passes`, whose timers cost opt a third more), and its "
      "instructions "
      "are counted by callgrind in `opt -passes=align-guard` (only `AlignGuardPass::run`)."
      % (runs_text(data), OWN_TIME_RUNS))
    a("")
    a("Size columns are elements per vector (pixels per image for the stencils; for GEMM "
      "the matrix dimension n). Cells are **instruction ratio / time ratio** to plain -O3 "
      "(1.0000 = the same); `-` = not run (see the misaligned-input table).")
    a("")
    a("## Results per kernel")
    for k in KERNELS:
        name = k["name"]
        a("")
        a("### %s (`bench/kernels/%s`)" % (name, k["src"]))
        a("")
        hdr = ("| size | plain: instructions / ns per call | " + " | ".join(VARIANT_NAMES[1:]) +
               " | noise: plain again, time |")
        a(hdr)
        a("|---" * (len(VARIANT_NAMES) + 2) + "|")
        for size in data["sizes"][name]:
            r = rows["%s:%d" % (name, size)]
            cells = []
            for v in VARIANT_NAMES[1:]:
                if v in r["ir_ratio"] and v in r["t_ratio"]:
                    cells.append("%s / %s" % (fmt_ratio(r["ir_ratio"][v]), fmt_ratio(r["t_ratio"][v])))
                else:
                    cells.append("-")
            a("| %s | %d / %.0f | %s | %s |" % (
                case_label(k, size), r["ir"]["plain"], r["t"].get("plain", float("nan")),
                " | ".join(cells), fmt_ratio(r["t_ratio"].get("plain-again", float("nan")))))
        cs = data["code_size"]
        a("")
        a("Code size (bytes): " + ", ".join(
            "%s %d%s" % (b, cs[b][name][0], " + %d" % cs[b][name][1] if cs[b][name][1] else "")
            for b in BUILDS) + ".")
        big = [rows["%s:%d" % (name, s)] for s in data["sizes"][name] if elements(k, s) >= 64 * KI]
        if big:
            r = big[0]
            a("Instruction overhead per call at %s: abort %+d, fallback %+d, ubsan %+d, "
              "ubsan-trap %+d." % (case_label(k, r["size"]),
                                    *[r["ir"][v] - r["ir"]["plain"] for v in
                                      ("abort", "fallback", "ubsan", "ubsan-trap")]))
        a(hot_loop_line(data, k))
    a("")
    a("## UBSan's alignment check: what clang emits and what -O3 leaves")
    a("")
    a("Checks (conditional branches to a UBSan handler or trap) in each kernel's IR, "
      "straight from clang (`-Xclang -disable-llvm-passes`) and after -O3. The frontend "
      "checks every typed "
      "access (the type's alignment, 4 or 8 bytes) and every __builtin_assume_aligned / "
      "align_value promise; the optimiser removes the per-access checks it can prove from "
      "the promise, and the ones it cannot prove stay in the loop and keep it from being "
      "vectorised.")
    a("")
    a("| kernel | ubsan: emitted / after -O3 | ubsan-trap: emitted / after -O3 | hot loop vs plain (ubsan, ubsan-trap) |")
    a("|---|---|---|---|")
    for k in KERNELS:
        u = data["ubsan_checks"][k["name"]]
        hl = data["hot_loops"][k["name"]]
        a("| %s | %d / %d | %d / %d | %s, %s |" % (k["name"], u["ubsan"][0], u["ubsan"][1],
                                                  u["ubsan-trap"][0], u["ubsan-trap"][1],
                                                  hl["ubsan"]["verdict"], hl["ubsan-trap"]["verdict"]))
    a("")
    write_misaligned(data, a)
    if data.get("compile"):
        write_compile(data, a)
    if data.get("thirdparty"):
        write_thirdparty(data, a)
    if data["warnings"]:
        a("## Compiler warnings while building the variants")
        a("")
        a("```")
        seen = set()
        for key, w in sorted(data["warnings"].items()):
            for line in w.splitlines():
                line = re.sub(r"^.*?warning:", "warning:", line)
                if "warning:" in line and line not in seen:
                    seen.add(line)
                    a("%s: %s" % (key, line))
        a("```")
        a("")
    a("![overhead against size](overhead.png)")
    a("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def write_native_results(data, path):
    """RESULTS.md of a --native run: what it can show without instruction
    counts (analyse_native)."""
    sm, rows = data["summary"], data["rows"]
    L = []
    a = L.append
    write_header(data, a, [
        hot_loop_summary(sm),
        "**Aligned input**: `abort` and `fallback` took a median %+.1f%% (worst %+.1f%%) of "
        "plain -O3's time from 64 Ki elements up; plain's own library timed again read %+.1f%% "
        ".. %+.1f%% (the noise of these times)." % (
            sm["aligned_time_median"], sm["aligned_time_worst"], *sm["noise"]),
        "**Misaligned input, `fallback`**: %s; from 64 Ki elements up, median %.0f%% of the "
        "aligned path's throughput, and median %.0f%% (worst %.0f%%) of promise-free code's on "
        "the same misaligned data (`recover-misaligned`), the limit." % (
            "right answers on every kernel" if sm["fallback_correct"] else
            "not on every kernel (the targets say which)", sm["fallback_tp_median"],
            sm["fallback_vs_free_median"], sm["fallback_vs_free_worst"])])
    a("## Targets (issue 5, item 3, those a native run measures)")
    a("")
    target_table(a, data["targets"])
    a("")
    a("## Time per kernel")
    a("")
    a("Time ratio to plain -O3 (median of %d repetitions, each a rotation over every variant "
      "in one process); `-` = not run (see the misaligned-input table)." % data["timing"]["reps"])
    names = [v for v in VARIANT_NAMES if v != "plain"]
    for k in KERNELS:
        a("")
        a("### %s (`bench/kernels/%s`)" % (k["name"], k["src"]))
        a("")
        a("| size | plain: ns per call | " + " | ".join(names) + " | noise: plain again |")
        a("|---" * (len(names) + 3) + "|")
        for size in data["sizes"][k["name"]]:
            r = rows["%s:%d" % (k["name"], size)]
            a("| %s | %.0f | %s | %s |" % (
                case_label(k, size), r["t"].get("plain", float("nan")),
                " | ".join(fmt_ratio(r["t_ratio"][v]) if v in r["t_ratio"] else "-" for v in names),
                fmt_ratio(r["t_ratio"].get("plain-again", float("nan")))))
        a("")
        a(hot_loop_line(data, k))
    a("")
    write_misaligned(data, a)
    with open(path, "w") as f:
        f.write("\n".join(L))


def summary_panel(data, ax, text_ax):
    """The first row: per kernel, the instruction overhead on aligned input
    of AlignGuard (`abort`) and UBSan at the largest sizes, and the summary."""
    pk = data["summary"]["per_kernel"]
    names = [k["name"] for k in KERNELS]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [max(pk[n]["aligned"], 0.01) for n in names], width=0.4,
           color="tab:blue", label="AlignGuard (abort)")
    ax.bar([x + 0.2 for x in xs], [max(pk[n]["ubsan"], 0.01) for n in names], width=0.4,
           color="tab:red", label="UBSan -fsanitize=alignment")
    ax.set_yscale("log")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("% more instructions than plain -O3", fontsize=8)
    ax.set_title("Summary: worst instruction overhead on aligned input, >= 64 Ki elements",
                 fontsize=9)
    ax.legend(fontsize=7)
    ax.tick_params(labelsize=7)
    text_ax.axis("off")
    import textwrap
    text = "\n".join(textwrap.fill(l.replace("**", "").replace("`", ""), 80)
                     for l in summary_lines(data))
    text_ax.text(0, 1, text, va="top", fontsize=7.5)


def plot(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = data["rows"]
    fig, all_axes = plt.subplots(len(KERNELS) + 1, 2, figsize=(12, 3.1 * (len(KERNELS) + 1)),
                                 squeeze=False)
    summary_panel(data, all_axes[0][0], all_axes[0][1])
    axes = all_axes[1:]
    # Fixed colours and marks per variant, the same in every panel.
    styles = dict(zip(VARIANT_NAMES[1:], [
        ("tab:blue", "o-"), ("tab:orange", "s-"), ("tab:green", "s--"), ("tab:red", "^-"),
        ("tab:purple", "^--"), ("tab:brown", "x-"), ("tab:pink", "d-")]))
    from matplotlib.ticker import FuncFormatter
    percent = FuncFormatter(lambda y, _: "%g%%" % y)
    for i, k in enumerate(KERNELS):
        sizes = data["sizes"][k["name"]]
        xs = [elements(k, s) for s in sizes]
        for j, (metric, title) in enumerate((("ir_ratio", "instructions"), ("t_ratio", "time"))):
            ax = axes[i][j]
            for v in VARIANT_NAMES[1:]:
                pts = [(x, rows["%s:%d" % (k["name"], s)][metric].get(v)) for x, s in zip(xs, sizes)]
                pts = [(x, (y - 1) * 100) for x, y in pts if y is not None]
                if pts:
                    color, mark = styles[v]
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], mark, color=color,
                            label=v, markersize=4)
            ax.set_xscale("log", base=2)
            ax.set_yscale("symlog", linthresh=1.0)
            ax.axhline(0, color="black", linewidth=0.6)
            ax.axhline(1, color="grey", linewidth=0.6, linestyle=":")
            ax.set_title("%s: %s overhead vs plain -O3" % (k["name"], title), fontsize=9)
            ax.yaxis.set_major_formatter(percent)
            ax.set_ylabel("over plain -O3", fontsize=8)
            ax.set_xlabel("elements" + (" (n x n)" if k.get("unit") == "n" else ""), fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(True, which="major", alpha=0.3)
    handles = [plt.Line2D([], [], color=c, marker=m[0], linestyle=m[1:], markersize=4)
               for c, m in styles.values()]
    fig.suptitle("AlignGuard benchmark (%s, %s, %s): overhead against size. Log scale beyond "
                 "+-1%%, linear within; dotted line: +1%%" % (
                     data["clang_version"], data["cflags"] or "x86-64", data["date"][:10]),
                 fontsize=10, y=0.997)
    fig.legend(handles, list(styles), loc="upper center", ncol=len(styles), fontsize=8,
               bbox_to_anchor=(0.5, 0.985))
    fig.tight_layout(rect=(0, 0, 1, 0.965))
    fig.savefig(path, dpi=80)


def explain(data):
    """Plain-language reasons for each missed target, from the numbers."""
    why = []
    rows = data["rows"]
    for tg in data["targets"]:
        if tg["met"]:
            continue
        name = tg["target"]
        if name.startswith("Aligned input"):
            bad = sorted(((r["ir_ratio"][v], v, r) for r in rows.values() if r["elements"] >= 64 * KI
                          for v in ("abort", "fallback") if r["ir_ratio"][v] > 1.01),
                         key=lambda x: -x[0])
            why.append("Instructions on aligned input: %s. A check inside a loop (a promise made per "
                       "row) is paid per iteration of that loop." % "; ".join(
                           "%s %s %s %+.2f%%" % (r["kernel"], case_label(find_kernel(r["kernel"]), r["size"]),
                                                  v, 100 * (x - 1)) for x, v, r in bad[:4]))
        elif name.startswith("... and the hot loop"):
            why.append("Hot loop: %s." % tg["measured"])
        elif name.startswith("Misaligned input, `fallback`: correct"):
            for k in KERNELS:
                if not skipped(k, "fallback-misaligned"):
                    continue
                warned = [w for key, w in data["warnings"].items()
                          if key == "fallback/" + k["name"] and "fallback-unsafe" in w]
                text = "Fallback on misaligned input, `%s`: %s." % (
                    k["name"], data["detect"][k["name"]]["fallback"]["what"])
                if k["name"] == "stencil3x3_rows":
                    text += (" It makes its promises per row, after the stores of earlier rows, so "
                             "a rerun from the start would repeat those stores; `stencil3x3`, the "
                             "same blur with its promise at entry, falls back correctly.")
                if warned:
                    text += " The pass said so when it compiled the kernel (`fallback-unsafe`, the warnings below)."
                why.append(text)
        elif name.startswith("Misaligned input, `fallback`: at least"):
            cmp = []
            for r in rows.values():
                if r["elements"] >= 64 * KI and "fallback-misaligned" in r["t"] and "recover-misaligned" in r["t"]:
                    cmp.append((r["t"]["fallback"] / r["t"]["fallback-misaligned"],
                                r["t"]["recover"] / r["t"]["recover-misaligned"], r))
            low = [c for c in cmp if c[0] < 0.85]
            if low:
                why.append("Misaligned throughput: the unaligned copy is the same vectorised loop with "
                           "`movups` instead of `movaps` (and no folded memory operands); what costs is "
                           "the misaligned data itself: with 16-byte vectors 4 bytes off, one load or "
                           "store in four splits a cache line. The diagnostic `recover` pair runs "
                           "promise-free code on the same buffers without any fallback and loses about "
                           "as much. Below 85%%, fallback-misaligned against fallback (recover-misaligned "
                           "against recover): %s. Larger sizes, bound by memory bandwidth, hide the "
                           "split accesses." % "; ".join(
                               "%s %s %.0f%% (%.0f%%)" % (
                                   c[2]["kernel"], case_label(find_kernel(c[2]["kernel"]), c[2]["size"]),
                                   100 * c[0], 100 * c[1]) for c in low))
        elif name.startswith("At least 10x"):
            low = sorted({r["kernel"] for r in rows.values() if r.get("ubsan_factor", float("inf")) < 10})
            why.append("UBSan factor, missed on %s: there the optimiser proves every typed access "
                       "aligned from the promise, UBSan's per-access "
                       "checks fold away, and what is left is its check of the promise itself, once "
                       "per call: the same work as AlignGuard's check, so 10x less is not possible "
                       "(AlignGuard's frame push/pop around its runtime call can even make it the "
                       "dearer of the two). Where UBSan's per-access checks survive -O3 (the UBSan "
                       "table), they stay in the loop, which is no longer vectorised, and AlignGuard "
                       "is far cheaper (the factors above)." % ", ".join(low))
        elif "own time" in name:
            why.append("The pass's own time exceeds 2%% of opt -O2: %s. The instructions it "
                       "executes grow as the module does (x%s for each 4x the kernels, "
                       "callgrind), so what is over is time per instruction in a module whose "
                       "memory grows (one run at 4000 and 16000 kernels; the compile-time "
                       "section has the peak memory)." % (
                           tg["measured"], ", x".join("%.3f" % g[4] for g in data["growth"])))
        elif name.startswith("... the whole cost"):
            why.append("Whole compile-time cost: the pass itself is cheap, but it adds a branch, a cold "
                       "block with a runtime call and a site descriptor per check, and turns `align` "
                       "parameter attributes into guarded assumes; on these small kernels the passes "
                       "after it spend that much more (the compile-time section lists the largest "
                       "differences), and the more so the bigger the module (%s). Larger functions "
                       "would dilute it; the generated kernels are deliberately small, as the issue "
                       "asks (a few pointer parameters each)." % tg["measured"])
        elif name.startswith("Linear growth"):
            why.append("Growth of the pass's time: %s. The pass executes exactly 4x the "
                       "instructions for 4x the kernels (next row: x%s), so the algorithm is linear "
                       "and the extra time is memory behaviour: a module pass that walks the whole "
                       "module meets more cache misses once the module no longer fits in the "
                       "caches. The time is also small (tenths of a second) and measured beside "
                       "another opt process on a noisy machine." % (
                           tg["measured"], ", x".join("%.3f" % g[4] for g in data["growth"])))
        elif name.startswith("... the same in instructions"):
            why.append("The pass's instruction count grows faster than the module: %s." % tg["measured"])
    if not why:
        why.append("None: every target is met.")
    return why


def runtime_call_cost(t, variant, fn):
    """Instructions spent in runtime function `fn` (inclusive) during the
    first counted call of `variant` (its first kernel, smallest size), from
    callgrind_annotate; None when it cannot tell."""
    dump = os.path.join(t.work, "callgrind", variant, "cg.1")
    p = subprocess.run(["callgrind_annotate", "--inclusive=yes", dump], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    m = re.search(r"^\s*([\d,]+) \(.*:%s \[" % re.escape(fn), p.stdout, re.M)
    return int(m.group(1).replace(",", "")) if m else None


def observations(data):
    """What else the numbers show, each only when the data show it."""
    obs = []
    rows, det = data["rows"], data["detect"]
    cost = data.get("fallback_call_cost")
    counted = list(data["instructions"].get("fallback-misaligned", {}))
    if cost and counted:
        first, size = counted[0].split(":")  # the first case counted, in dump cg.1
        obs.append("Every misaligned call in `fallback` mode calls `__alignguard_fallback`: %d "
                   "instructions per call (callgrind, %s at %s)%s." % (
                       cost, first, case_label(find_kernel(first), int(size)),
                       "; most of it formats the last-error line, every call, which formatting on "
                       "demand in `alignguard_last_error()` would avoid" if cost > 300 else
                       ", negligible next to the kernel"))
    for k in KERNELS:
        what = det[k["name"]]["recover"]["what"]
        if "completes, correct" not in what:
            obs.append("`align-guard<recover>` on misaligned input, `%s`: %s, so recover-misaligned "
                       "is not measured there.%s" % (
                           k["name"], what,
                           " Recover must also strip the promises that the checked pointers feed: "
                           "here the compute function's `align 64` parameters, passed through "
                           "local variables." if k["name"] == "fused_scale_add" else ""))
    free = [(r["ir_ratio"]["fallback-misaligned"], r) for r in rows.values()
            if r["elements"] >= 64 * KI and "fallback-misaligned" in r["ir_ratio"]]
    if free and not data["cflags"]:
        hi = max(free, key=lambda x: x[0])
        obs.append("Code without the promise needs more instructions on SSE2: an unaligned vector "
                   "operand cannot be folded into `mulps`/`addps`, so it takes a separate `movups` "
                   "(`fallback-misaligned`, which runs the unaligned copy, up to %+.0f%% on %s; "
                   "`recover-misaligned` runs such code too, the recover copy)."
                   % (100 * (hi[0] - 1), hi[1]["kernel"]))
    def named(ks):
        return ", ".join("%s (%s)" % (k["name"], k["promise"]) for k in ks) or "none"
    folded = [k for k in KERNELS if data["hot_loops"][k["name"]]["ubsan"]["verdict"] == "identical"]
    kept = [k for k in KERNELS if k not in folded]
    obs.append("UBSan instruments every kernel (the UBSan table). With LLVM %d, -O3 proves its "
               "per-access checks from the promise in %s: only the check of the promise itself "
               "is left, once per call, and the hot loop is plain's. It keeps them inside the "
               "loop, which is then not vectorised, in %s." % (data["llvm"], named(folded), named(kept)))
    smallest = [rows["%s:%d" % (k["name"], data["sizes"][k["name"]][0])] for k in KERNELS]
    obs.append("Instructions per call on aligned input at the smallest size, abort / fallback: %s. "
               "A check is an or-and-branch per place, and the failing side leaves by a tail "
               "call (`align-guard-cold-exits`), so nothing of it reaches the aligned path; the "
               "rest is code laid out differently around the loops (spills in a loop nest, "
               "another loop set-up); a negative number is code placed differently. "
               "`stencil3x3_rows` checks its row promises before the row loop." % ", ".join(
                   "%s %+d / %+d" % (r["kernel"], r["ir"]["abort"] - r["ir"]["plain"],
                                     r["ir"]["fallback"] - r["ir"]["plain"]) for r in smallest))
    return obs


def pass_differences(t, bc):
    """The passes whose -time-passes time grows most with the plugin on bc,
    to say where the whole compile-time cost goes: a profiled opt -O2
    (opt_profiled) without the plugin and one with it."""
    opt_profiled(t, bc, "base")
    opt_profiled(t, bc, "plugin")
    res = {}
    for name in ("base", "plugin"):
        with open(time_passes_file(t, bc, name)) as f:
            res[name] = time_passes_seconds(f.read())
    # Leaf passes only: the wrappers (the inliner's CGSCC pipeline, the
    # pass managers, the adaptors) contain the others' time.
    # Nor reading the bitcode (`Parse IR`): the plugin has no part in it.
    wrapper = re.compile(r"Total|Wrapper|Adaptor|RepeatedPass|PassManager|^Parse IR$")
    diff = sorted(((n, res["plugin"].get(n, 0) - res["base"].get(n, 0))
                   for n in set(res["base"]) | set(res["plugin"]) if not wrapper.search(n)),
                  key=lambda x: -x[1])
    return [(n.replace("alignguard::", ""), d) for n, d in diff[:5]]


def run_timing(t, data, case_list, small):
    """The timing driver: each variant's output verified against plain's,
    then the interleaved times. Returns the failed verifications."""
    log("timing: one interleaved run of %d variants (and a plain-again control) x %d cases"
        % (len(VARIANT_NAMES), len(case_list)))
    data["times"], data["verify"], data["timing"] = time_all(t, case_list, small)
    failed = ["%s %s" % (c, v) for c, vs in data["verify"].items() for v, s in vs.items() if s != "ok"]
    if failed:
        log("VERIFICATION FAILED: " + ", ".join(failed))
    return failed


def finish(t, args, data, failed, write, draw_plot):
    """Writes RESULTS.md (with write), the plot where draw_plot and
    results.json, logs the targets, and fails if a verification did."""
    data["elapsed_min"] = (time.time() - START) / 60
    os.makedirs(args.out_dir, exist_ok=True)
    results = os.path.join(args.out_dir, "RESULTS.md")
    written = [results]
    if draw_plot:
        written.append(os.path.join(args.out_dir, "overhead.png"))
        plot(data, written[-1])
    write(data, results)
    raw = os.path.join(t.work, "results.json")
    with open(raw, "w") as f:
        json.dump({k: v for k, v in data.items() if k != "rows"}, f, indent=1, default=str)
    log("wrote %s (raw numbers: %s)" % (" and ".join(os.path.relpath(w, ROOT) for w in written),
                                         os.path.relpath(raw, ROOT)))
    for tg in data["targets"]:
        log("%-4s %s: %s" % ("met" if tg["met"] else "MISS", tg["target"], tg["measured"]))
    if failed:
        sys.exit("bench: verification failed: " + ", ".join(failed))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer sizes, repetitions and compile-time modules")
    ap.add_argument("--llvm", type=int, default=14, help="LLVM major (default 14)")
    ap.add_argument("--build-dir", help="the AlignGuard build (default build-N)")
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "bench"),
                    help="where RESULTS.md and overhead.png go (default bench/)")
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
    args = ap.parse_args()
    if args.native:
        args.skip_compile = True  # its instruction counts need valgrind too
    t = Tools(args.llvm, os.path.abspath(args.build_dir or os.path.join(ROOT, "build-%d" % args.llvm)),
              args.cflags.split(), work=args.work_dir and os.path.abspath(args.work_dir))
    small = args.quick or args.reduced
    case_list = cases(small)
    data = dict(quick=args.quick, reduced=args.reduced, native=args.native, llvm=args.llvm,
                cflags=args.cflags,
                command="scripts/bench.sh" + (" --quick" if args.quick else "") +
                        (" --llvm %d" % args.llvm if args.llvm != 14 else "") +
                        (" (bench/run.py%s%s)" % (" --cflags '%s'" % args.cflags if args.cflags else "",
                                                  " --native" if args.native else "")
                         if args.cflags or args.native else ""),
                date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                machine=machine(), git=git_head(),
                clang_version=run([t.clang, "--version"]).stdout.splitlines()[0],
                sizes={k["name"]: (k["quick"] if small else k["sizes"]) for k in KERNELS})

    with ThreadPoolExecutor(max_workers=2) as pool:
        if os.path.isdir(t.work):
            shutil.rmtree(t.work)
        os.makedirs(t.work)
        data["snapshot"] = snapshot(t)
        log("building %d builds x %d kernels with %s" % (len(BUILDS), len(KERNELS), t.clang))
        data["warnings"], data["remarks"] = build_all(t, pool)
        data["code_size"] = code_sizes(t)
        data["hot_loops"] = hot_loops(t)
        data["ubsan_checks"] = ubsan_checks(t)

        # What each build does on misaligned input; a misaligned variant
        # whose build does not complete correctly there is not measured.
        log("misaligned input, one process per kernel and build")
        data["detect"] = detect(t)
        for k in KERNELS:
            SKIPS[k["name"]] = [v for v, b, off in VARIANTS if off and
                                "completes, correct" not in data["detect"][k["name"]][b]["what"]]
        data["skips"] = dict(SKIPS)

        if args.native:  # no valgrind: no counts and no compile time
            failed = run_timing(t, data, case_list, small)
            analyse_native(data)
            return finish(t, args, data, failed, write_native_results, draw_plot=False)

        # The compile-time modules, two at a time, before anything is timed.
        os.makedirs(os.path.join(t.work, "compile"))
        sizes = [] if args.skip_compile else COMPILE_SIZES_QUICK if args.quick else COMPILE_SIZES
        tvm_sizes = [] if args.skip_compile else TVM_SIZES_QUICK if args.quick else TVM_SIZES
        instr_modules = [] if args.skip_compile else INSTR_MODULES
        mods = [pool.submit(gen_module, t, n) for n in sizes]
        tmods = [pool.submit(gen_module, t, n, "gen_tvm_module.py", "tvm") for n in tvm_sizes]
        imods = [pool.submit(gen_module, t, n, generator, prefix + "-instr")
                 for _, generator, prefix, n, _ in instr_modules]
        modules = dict(f.result() for f in mods)
        tvm_modules = dict(f.result() for f in tmods)
        instr_bcs = [f.result()[1] for f in imods]

    # The kernels' timing driver alone: nothing else of the suite's runs
    # meanwhile.
    failed = run_timing(t, data, case_list, small)

    # Then the rest in lanes, one per CPU (run_lanes): callgrind's counts,
    # and the compile-time pairs, each pair's two runs sharing one CPU.
    runs = {n: 2 if args.quick else COMPILE_RUNS[n] for n in sizes}
    tvm_runs = {n: 2 if args.quick else TVM_RUNS[n] for n in tvm_sizes}
    log("lanes: callgrind of %d variants x %d cases%s" % (
        len(VARIANT_NAMES), len(case_list),
        "; compile time: opt -O2 on %s kernels, on TVM-shaped modules of %s functions; "
        "opt -O2's and the pass's instructions; third-party translation units" % (
            ", ".join("%d (%d pairs)" % (n, runs[n]) for n in sizes),
            ", ".join(map(str, tvm_sizes))) if sizes else ""))
    # The estimates: rough seconds on this VM (LLVM 14, 2026-12-04), for
    # the order only.
    jobs = [Job("callgrind " + v, 15, lambda v=v: callgrind(t, v, case_list))
            for v in VARIANT_NAMES]
    # return=-1: only where a kernel returns an int, smallest size.
    jobs.append(Job("callgrind return", 5, lambda: callgrind(
        t, "return", [(k, data["sizes"][k["name"]][0]) for k in KERNELS if k.get("returns_int")])))
    for n, bc in modules.items():
        jobs.append(Job("pass instructions %d" % n, 3 + n / 200,
                        lambda n=n, bc=bc: pass_instructions(t, n, bc)))
        # Lane 0, as own times: the growth from size to size and align-guard's
        # share of opt -O2 compare seconds from one CPU.
        jobs.append(Job("opt -O2 %d kernels" % n, runs[n] * n * 0.0065,
                        lambda bc=bc, pairs=runs[n]: compile_pairs(t, bc, pairs), lane=0))
    for n, bc in tvm_modules.items():
        jobs.append(Job("opt -O2 %d TVM-shaped" % n, tvm_runs[n] * n * 0.02,
                        lambda bc=bc, pairs=tvm_runs[n]: compile_pairs(t, bc, pairs)))
    for (label, _, _, n, per_function), bc in zip(instr_modules, instr_bcs):
        jobs.append(Job("instructions %d %s" % (n, label), per_function * n,
                        lambda label=label, bc=bc, n=n: compile_instructions(t, label, bc, n)))
    if sizes or tvm_sizes:
        all_bcs = list(modules.values()) + list(tvm_modules.values())
        jobs.append(Job("own times", 30, lambda: own_times(t, all_bcs), lane=0))
    if sizes:
        smallest = modules[min(modules)]
        for i, cpu in enumerate(lane_cpus()):  # the noise floor on each CPU
            jobs.append(Job("control on CPU %d" % cpu, CONTROL_PAIRS * 6,
                            lambda: compile_control(t, smallest, CONTROL_PAIRS), lane=i))
        # Where the cost goes, on the smallest size (the largest would take
        # two more runs of about a minute each per major).
        jobs.append(Job("pass differences", 8, lambda: pass_differences(t, smallest)))
    if not args.skip_compile:
        for tu in THIRDPARTY:
            jobs.append(Job("third-party " + tu["name"],
                            tu["seconds"] * (2 if args.quick else tu["runs"]),
                            lambda tu=tu: thirdparty_tu(t, tu, args.quick)))
    nodebug_plugin(t)  # once, before jobs in two lanes want it
    done, data["lanes"] = run_lanes(jobs)

    data["instructions"] = {v: done["callgrind " + v] for v in VARIANT_NAMES + ["return"]}
    data["fallback_call_cost"] = runtime_call_cost(t, "fallback-misaligned", "__alignguard_fallback")
    data["pass_instructions"] = {n: done["pass instructions %d" % n] for n in modules}
    if instr_modules:
        data["compile_instr"] = {"%d %s" % (n, label): done["instructions %d %s" % (n, label)]
                                 for label, _, _, n, _ in instr_modules}
    own = done.get("own times", {})
    if sizes:
        data["compile"] = {n: compile_time(n, done["opt -O2 %d kernels" % n], own[bc])
                           for n, bc in sorted(modules.items())}
        data["compile_control"] = [done[j.name] for j in jobs if j.name.startswith("control on ")]
        data["compile_passes_kernels"] = min(modules)
        data["compile_passes"] = done["pass differences"]
    if tvm_sizes:
        data["compile_tvm"] = {n: compile_time(n, done["opt -O2 %d TVM-shaped" % n], own[bc],
                                               "TVM-shaped functions")
                               for n, bc in sorted(tvm_modules.items())}
    if not args.skip_compile:
        data["thirdparty"] = {tu["name"]: done["third-party " + tu["name"]] for tu in THIRDPARTY}

    analyse(data)
    data["why"] = explain(data)
    data["why13"] = explain13(data)
    data["observations"] = observations(data)
    finish(t, args, data, failed, write_results, draw_plot=True)


if __name__ == "__main__":
    main()
