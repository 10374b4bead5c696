# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What one benchmark run measures (the kernels, builds, variants, sizes and
compile-time modules), the LLVM tools it uses, and small helpers shared by
the measurement modules."""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


# Variants: a build and the offset of the buffers from a 64-byte boundary.
# recover-misaligned is a diagnostic, not one of the variants: it
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
# two at a time from a quad (opt_quad): two chains of processes at once on
# one CPU, one running opt -O2 without the plugin and then with it, the
# other with it and then without, so that the two runs of a pair share the
# CPU, and with it the VM's slow spells (bench/README.md, "Compile time",
# has the history and the measurements behind it).
COMPILE_RUNS = {1000: 6, 4000: 2, 16000: 2}


# The noise floor: opt -O2 without the plugin against itself, one quad (two
# pairs) on the smallest module.
CONTROL_PAIRS = 2


# align-guard's own time (own_time): the median of this many runs of the
# pass alone; tens of milliseconds move with the machine as a whole second
# does.
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


def env_with(**kw):
    """The environment without the user's AlignGuard settings, plus kw."""
    env = dict(os.environ)
    env.pop("ALIGNGUARD_PIPELINE", None)
    env.pop("ALIGNGUARD_OPTIONS", None)
    env.update(kw)
    return env


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


REMARK = re.compile(r"remark: (.*) checked at site (\d+) \(([^,]+), ([\w-]+)\)")


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
                timing_cpu=max(os.sched_getaffinity(0)))


def git_head():
    p = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    return p.stdout.strip() or "?"
