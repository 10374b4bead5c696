# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile time: opt -O2 with and without the plugin on generated and
TVM-shaped modules (CPU time in quads, instructions with callgrind),
align-guard's own time and instructions, where the cost goes
(-time-passes), and clang -O2 on the third-party translation units."""
import os
import re
import statistics
import subprocess
import sys

from measure.common import OWN_TIME_RUNS, REMARK, ROOT, env_with, log, run
from measure.lanes import lane_cpu, pairs_of, quad, run_pinned


def gen_module(t, n, generator="gen_compile_module.py", prefix="k"):
    """Writes a module of n functions with `generator` and compiles it to
    exactly what clang -O2 hands to its optimisation pipeline."""
    c = os.path.join(t.work, "compile", "%s%d.c" % (prefix, n))
    bc = c[:-2] + ".bc"
    run([sys.executable, os.path.join(ROOT, "bench", generator), str(n), c])
    run([t.clang, "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c", c, "-o", bc])
    return n, bc


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


def pass_instructions(t, n, bc):
    """Instructions the align-guard pass itself executes on a module
    (callgrind, counting only AlignGuardPass::run, with `-passes=align-guard`
    alone): unlike its time, independent of the machine's noise and of how
    well a bigger module fits in the caches. Collection toggles at the pass
    manager's wrapper (PassModel<Module, AlignGuardPass, ...>::run): a
    pattern that named AlignGuardPass::run would also match the lambdas
    inside it, and each of those would toggle collection off again."""
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
    Never a pair's two runs on two CPUs: two opt processes on two CPUs
    slowed each other unevenly, and the two CPUs ran the same command at
    different speeds; the quad's four runs share the lane's CPU, while the
    other lane runs another job (run_lanes). Not with -time-passes
    (opt_profiled): its timers cost opt -O2 about a third more CPU time,
    which is not what a build pays (bench/README.md has the figures)."""
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
        % (n, label, r["base"], r["plugin"], 100.0 * (r["plugin"] - r["base"]) / r["base"]))
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
