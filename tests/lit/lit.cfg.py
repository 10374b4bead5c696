# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lit configuration for AlignGuard: IR tests through opt, program tests
# through clang -fpass-plugin, all with the tools of the LLVM under test.
import os
import platform
import re
import shutil
import subprocess

import lit.formats

config.name = "AlignGuard"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.project_build, "tests", "lit")

# FileCheck, not, count, opt, clang: from the LLVM under test, never PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
# A developer's ALIGNGUARD_* settings must not leak into the tests.
for var in ("ALIGNGUARD_PIPELINE", "ALIGNGUARD_OPTIONS", "ALIGNGUARD",
            "ALIGNGUARD_PLUGIN", "ALIGNGUARD_LLVM", "ALIGNGUARD_CLANG",
            "ALIGNGUARD_RUNTIME", "CCACHE_DIR"):
    config.environment.pop(var, None)

opt = os.path.join(config.llvm_bin, "opt")
# The arguments with which clang loads the plugin so that `-mllvm
# -alignguard-*` reaches it (-fplugin= too before LLVM 22): the wrapper's
# answer, the one it and alignguard_instrument() use, asked here, not
# written again. Feature `fplugin`: that answer has -fplugin=.
wrapper = os.path.join(config.project_source, "scripts", "alignguard-clang")
plugin_args = subprocess.run(
    [config.python, wrapper, "--alignguard-plugin=" + config.plugin,
     "--alignguard-print-plugin-args"], env={"PATH": config.environment["PATH"]},
    capture_output=True, text=True)
if plugin_args.returncode != 0 or not plugin_args.stdout.split():
    lit_config.fatal("alignguard-clang --alignguard-print-plugin-args failed: "
                     + plugin_args.stderr)
plugin_args = plugin_args.stdout.split()
if any(a.startswith("-fplugin=") for a in plugin_args):
    config.available_features.add("fplugin")
# Longer names first: lit substitutes in this order.
config.substitutions.append(("%plugin-args", " ".join(plugin_args)))
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%opt-ag", "%s -load-pass-plugin=%s" % (opt, config.plugin)))
config.substitutions.append(("%opt", opt))
config.substitutions.append(("%llc", os.path.join(config.llvm_bin, "llc")))
clang_flags = "-fpass-plugin=%s -I%s" % (config.plugin, config.runtime_include)
config.substitutions.append(("%clang-ag", "%s %s" % (config.clang, clang_flags)))
# clang with the plugin loaded as the wrapper loads it for a pipeline given
# with -mllvm (%plugin-args).
config.substitutions.append(("%clang-mllvm", "%s %s -I%s" % (
    config.clang, " ".join(plugin_args), config.runtime_include)))
config.substitutions.append(("%clang", config.clang))
# The example JIT host (examples/jit-host) and its sources.
config.substitutions.append(("%jit-host", config.jit_host))
config.substitutions.append(("%examples", os.path.join(config.project_source, "examples")))
# Longer names first: lit substitutes in this order.
config.substitutions.append(("%rt-include", config.runtime_include))
# The runtime archive, build-N/runtime/libalignguard_rt.a (after the objects,
# as a path; libalignguard_rt.so beside it is the linker script that
# -lalignguard_rt finds).
config.substitutions.append(("%rt", config.runtime_lib))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%tools", os.path.join(config.project_source, "tests", "tools")))
# The compiler wrappers, run as a build runs them (their own #! line), before
# %alignguard, which would otherwise match their names' start.
config.substitutions.append(("%alignguard-cxx", os.path.join(
    config.project_source, "scripts", "alignguard-clang++")))
config.substitutions.append(("%alignguard-clang", os.path.join(
    config.project_source, "scripts", "alignguard-clang")))
config.substitutions.append(("%alignguard", "%s %s" % (
    config.python, os.path.join(config.project_source, "scripts", "alignguard"))))

# rustc, to produce Rust kernels' IR in the tests: Debian's (package rustc)
# first, and only one whose bundled LLVM is not newer than the LLVM under
# test (opt cannot read newer IR). Without one, lit reports the tests that
# need it UNSUPPORTED.
for rustc in ("/usr/bin/rustc", shutil.which("rustc") or ""):
    if not rustc or not os.path.exists(rustc):
        continue
    version = subprocess.run([rustc, "--version", "--verbose"],
                             capture_output=True, text=True).stdout
    m = re.search(r"LLVM version: (\d+)", version)
    if m and int(m.group(1)) <= config.llvm_version_major:
        config.available_features.add("rustc")
        config.substitutions.append(("%rustc", rustc))
        break

# MLIR of the LLVM under test (Debian's mlir-N-tools): kernels are lowered
# in the tests (tests/tools/mlir-lower.py). `mlir-vector-alignment`: this
# MLIR lowers vector.load's `alignment` attribute to the LLVM load (MLIR
# 21+; older releases accept the attribute and drop it, align 4).
# `mlir-verifies-alignment`: -generate-runtime-verification checks
# memref.assume_alignment's pointer (MLIR 21+).
mlir_opt = os.path.join(config.llvm_bin, "mlir-opt")
config.substitutions.append(("%mlir-lower", "%s %s --bin %s" % (
    config.python, os.path.join(config.project_source, "tests", "tools", "mlir-lower.py"),
    config.llvm_bin)))
if os.path.exists(mlir_opt) and os.path.exists(os.path.join(config.llvm_bin, "mlir-translate")):
    config.available_features.add("mlir")

    def mlir_prints(mlir_pass, text, expected):
        """Whether mlir-opt --MLIR_PASS on TEXT succeeds and prints EXPECTED
        (a regular expression)."""
        probe = subprocess.run([mlir_opt, "--" + mlir_pass], capture_output=True,
                               text=True, input=text)
        return probe.returncode == 0 and re.search(expected, probe.stdout)

    if mlir_prints("convert-vector-to-llvm",
                   "func.func @f(%m: memref<8xf32>, %i: index) -> vector<8xf32> {\n"
                   "  %v = vector.load %m[%i] {alignment = 32} : memref<8xf32>, vector<8xf32>\n"
                   "  return %v : vector<8xf32>\n}\n",
                   r"llvm\.load .*alignment = 32\b"):
        config.available_features.add("mlir-vector-alignment")
    if mlir_prints("generate-runtime-verification",
                   "func.func @f(%a: memref<?xf32>) {\n"
                   "  memref.assume_alignment %a, 32 : memref<?xf32>\n"
                   "  return\n}\n",
                   r"not aligned to 32"):
        config.available_features.add("mlir-verifies-alignment")

config.substitutions.append(("%llvm-ar", os.path.join(config.llvm_bin, "llvm-ar")))

config.available_features.add("llvm-%d" % config.llvm_version_major)
config.substitutions.append(("%llvm-major", str(config.llvm_version_major)))
# make, for the wrapper's make project; ccache (Debian's ccache), for the
# test that changing the wrapper's action changes the cached object. Without
# them lit reports those tests UNSUPPORTED.
if shutil.which("make", path=config.environment["PATH"]):
    config.available_features.add("make")
if shutil.which("ccache", path=config.environment["PATH"]):
    config.available_features.add("ccache")
# sccache and distcc (+ distccd), Debian's packages: the pipeline on the
# command line reaches their caches and remote compilers.
for tool in ("sccache", "distcc"):
    if shutil.which(tool, path=config.environment["PATH"]):
        config.available_features.add(tool)
# NVIDIA's PTX assembler, where a CUDA toolkit is installed (not a Debian
# package): the guarded PTX must assemble. Without it lit reports those tests
# UNSUPPORTED.
for ptxas in (shutil.which("ptxas", path=config.environment["PATH"]),
              "/usr/local/cuda/bin/ptxas"):
    if ptxas and os.access(ptxas, os.X_OK):
        config.available_features.add("ptxas")
        config.substitutions.append(("%ptxas", ptxas))
        break
# Debian's ROCm device libraries (rocm-device-libs; scripts/setup.sh installs
# them): an AMDGPU kernel's report from the device calls their stderr
# functions. They are LLVM 15 bitcode, which LLVM 14 cannot read; clang links
# them after the optimisation pipeline, where the plugin has added its calls,
# from clang 19 on (-Xclang -mlink-builtin-bitcode-postopt). Elsewhere lit
# reports those tests UNSUPPORTED.
rocm_libs = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
if os.path.exists(os.path.join(rocm_libs, "ockl.bc")) and config.llvm_version_major >= 15:
    config.available_features.add("rocm-device-libs")
    config.substitutions.append(("%rocm-libs", rocm_libs))
if config.llvm_version_major >= 19:
    config.available_features.add("clang-link-postopt")
# The Rust host test needs cargo (it builds offline, with no dependencies);
# without it lit reports the test UNSUPPORTED, never passed.
if shutil.which("cargo", path=config.environment["PATH"]):
    config.available_features.add("cargo")
# numpy (Debian's python3-numpy), for the Python host (examples/python):
# %numpy-python is the first of the tests' Python and Debian's python3 that
# imports it. Without one lit reports the test UNSUPPORTED.
for numpy_python in (config.python, "/usr/bin/python3"):
    if os.path.exists(numpy_python) and subprocess.run(
            [numpy_python, "-c", "import numpy"], capture_output=True).returncode == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy-python", numpy_python))
        break
# Program tests on real kernel generators need Debian packages:
# libhalide14-0-dev and g++ (halide: the test builds a Halide generator),
# libhwy-dev (hwy), libxsimd-dev (xsimd), libeigen3-dev (eigen). Without them lit reports the
# tests UNSUPPORTED.
if (os.path.exists("/usr/include/halide14/Halide.h")
        and shutil.which("g++", path=config.environment["PATH"])):
    config.available_features.add("halide")
if os.path.exists("/usr/include/hwy/highway.h"):
    config.available_features.add("hwy")
if os.path.exists("/usr/include/xsimd/xsimd.hpp"):
    config.available_features.add("xsimd")
if os.path.exists("/usr/include/eigen3/Eigen/Core"):
    config.available_features.add("eigen")
# The `range` return attribute (LLVM 19+), for IR that real generators
# write with it (TVM's tvm-ffi functions); empty where LLVM has none.
config.substitutions.append(("%range-m1-1", "range(i32 -1, 1)" if config.llvm_version_major >= 19 else ""))
for major in range(14, config.llvm_version_major + 1):
    config.available_features.add("llvm-at-least-%d" % major)
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
    # Program tests that run AVX2 code need a CPU that has it (and FMA).
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            cpu_flags = set(re.findall(r"^flags\s*:(.*)$", cpuinfo.read(), re.M)[0].split())
    except (OSError, IndexError):
        cpu_flags = set()
    if {"avx2", "fma"} <= cpu_flags:
        config.available_features.add("avx2")
