# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The kernels' side of a run: builds every variant, reads static facts
(code size, hot loops, UBSan's checks), runs each build on misaligned
input, counts instructions with callgrind and times every variant in one
driver process."""
import datetime
import hashlib
import os
import re
import shutil
import subprocess
import sys

from measure.common import (BUILDS, EXTRA_BUILDS, KERNELS, REMARK, ROOT, VARIANT_NAMES, VARIANTS,
                            env_with, log, run)
from measure.lanes import on_timing_cpu


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


def runtime_call_cost(t, variant, fn):
    """Instructions spent in runtime function `fn` (inclusive) during the
    first counted call of `variant` (its first kernel, smallest size), from
    callgrind_annotate; None when it cannot tell."""
    dump = os.path.join(t.work, "callgrind", variant, "cg.1")
    p = subprocess.run(["callgrind_annotate", "--inclusive=yes", dump], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    m = re.search(r"^\s*([\d,]+) \(.*:%s \[" % re.escape(fn), p.stdout, re.M)
    return int(m.group(1).replace(",", "")) if m else None
