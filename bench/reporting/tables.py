# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One run's section of RESULTS.md, from its measurements (after
targets.analyse): the summary figures, the targets met or missed, and the
tables. Numbers and short factual lines only; what they mean and why a
target can be missed is bench/README.md's prose."""
import re

from reporting.targets import KI, case_label, elements, find_kernel, whole_cost

README = "bench/README.md"


def yes(met):
    return "yes" if met else "**no**"


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
    return "opt -O2 against itself on %s: %s" % (controls[0]["module"], ", ".join(
        "%+.1f%% .. %+.1f%% on CPU %d (%d pairs)"
        % (100 * min(c["diffs"]), 100 * max(c["diffs"]), c["cpu"], c["pairs"]) for c in controls))


def memory_text(c):
    """Peak resident memory of opt -O2 without and with the plugin."""
    if "rss_base" not in c:
        return "not measured"
    return "%.0f, %.0f (%+.1f%%)" % (c["rss_base"] / 1024, c["rss_plugin"] / 1024,
                                     100.0 * (c["rss_plugin"] / c["rss_base"] - 1))


def memory_growth_text(ct):
    """How much more memory opt -O2 holds with the plugin, per function."""
    return "; ".join("%d: %+.0f MiB, %.1f KiB a function" % (
        n, (c["rss_plugin"] - c["rss_base"]) / 1024, (c["rss_plugin"] - c["rss_base"]) / n)
        for n, c in sorted(ct.items()) if "rss_base" in c)


def size_growth_text(c):
    """A third-party object's growth with the plugin: text and data
    together, in percent and bytes."""
    base = c["text_base"] + c["data_base"]
    added = c["text_plugin"] + c["data_plugin"] - base
    return "%+.1f%% (%+d bytes)" % (100 * added / base, added)


def table(a, heads, rows):
    """A markdown table: its header, then one line per row of cells."""
    a("| " + " | ".join(heads) + " |")
    a("|---" * len(heads) + "|")
    for cells in rows:
        a("| " + " | ".join(cells) + " |")
    a("")


def target_table(a, targets):
    a("| target | measured | met |")
    a("|---|---|---|")
    for tg in targets:
        a("| %s | %s | %s |" % (tg["target"], tg["measured"], yes(tg["met"])))


def hot_loop_line(data, k):
    """One kernel's hot loop in every build against plain's."""
    hl = data["hot_loops"][k["name"]]
    return "Hot loop of `%s` against plain's (plain's aligned accesses: %s): %s." % (
        k.get("loop_fn", k["name"]), hl["abort"]["plain_aligned"] or "none",
        ", ".join("%s %s" % (b, hl[b]["verdict"]) for b in data["builds"] if b != "plain"))


def hot_loop_summary(sm):
    return "Hot loop (abort, fallback): " + (
        "identical to plain -O3's for every kernel" if sm["loops_same"] else
        "differs in " + "; ".join(sm["differing"])) + "."


def fallback_summary(sm):
    return ("Misaligned input, `fallback`: %s; from 64 Ki elements up, median %.0f%% of the "
            "aligned path's throughput, median %.0f%% (worst %.0f%%) of promise-free code's on "
            "the same data (`recover-misaligned`)." % (
                "correct on every kernel" if sm["fallback_correct"] else
                "not correct on every kernel (the targets say which)", sm["fallback_tp_median"],
                sm["fallback_vs_free_median"], sm["fallback_vs_free_worst"]))


def summary_lines(data):
    """The figures a user decides from: aligned input, the hot loop,
    against UBSan, misaligned input with fallback, compile time."""
    sm = data["summary"]
    lines = [
        "Aligned input, `abort`: median %+.2f%% instructions (worst %+.2f%%) over plain -O3 from "
        "64 Ki elements up%s." % (
            sm["aligned_median"], sm["aligned_worst"],
            "" if sm["aligned_time_median"] is None else
            "; median time %+.1f%%" % sm["aligned_time_median"]),
        hot_loop_summary(sm),
        "Against UBSan's `-fsanitize=alignment`, %d kernels: instruction overhead a median "
        "%.0fx smaller, worst kernel %.1fx." % (sm["ubsan_kernels"], sm["ubsan_median"],
                                                sm["ubsan_min"]),
        fallback_summary(sm),
    ]
    if sm["own_max"] is not None:
        lines.append("Compile time: the pass itself at most %.2f%% of `opt -O2`; the whole cost "
                     "%+.1f%% to %+.1f%% on modules of up to %d generated kernels." % (
                         sm["own_max"], sm["total_min"], sm["total_max"], sm["largest"]))
    return lines


def observations(data):
    """Further facts from the numbers, each only when the data show it."""
    obs = []
    rows, det = data["rows"], data["detect"]
    cost = data.get("fallback_call_cost")
    counted = list(data["instructions"].get("fallback-misaligned", {}))
    if cost and counted:
        first, size = counted[0].split(":")  # the first case counted, in dump cg.1
        obs.append("`__alignguard_fallback`, called by every misaligned call in `fallback` mode: "
                   "%d instructions per call (%s at %s)." % (
                       cost, first, case_label(find_kernel(data, first), int(size))))
    for k in data["kernels"]:
        what = det[k["name"]]["recover"]["what"]
        if "completes, correct" not in what:
            obs.append("`align-guard<recover>` on misaligned input, `%s`: %s; recover-misaligned "
                       "is not measured there." % (k["name"], what))
    free = [(r["ir_ratio"]["fallback-misaligned"], r) for r in rows.values()
            if r["elements"] >= 64 * KI and "fallback-misaligned" in r["ir_ratio"]]
    if free:
        hi = max(free, key=lambda x: x[0])
        obs.append("`fallback-misaligned` (the unaligned copy): up to %+.0f%% instructions (%s)."
                   % (100 * (hi[0] - 1), hi[1]["kernel"]))
    folded = [k["name"] for k in data["kernels"]
              if data["hot_loops"][k["name"]]["ubsan"]["verdict"] == "identical"]
    kept = [k["name"] for k in data["kernels"] if k["name"] not in folded]
    obs.append("UBSan's hot loop is plain's in: %s; not in: %s." % (
        ", ".join(folded) or "none", ", ".join(kept) or "none"))
    smallest = [rows["%s:%d" % (k["name"], data["sizes"][k["name"]][0])] for k in data["kernels"]]
    obs.append("Instructions per call on aligned input at the smallest size, abort / fallback: "
               "%s." % ", ".join("%s %+d / %+d" % (r["kernel"], r["ir"]["abort"] - r["ir"]["plain"],
                                                  r["ir"]["fallback"] - r["ir"]["plain"])
                                 for r in smallest))
    return obs


def write_header(data, a, summary):
    """The run's facts (command, machine, compiler, plugin, kernels' flags)
    and its summary figures."""
    m = data["machine"]
    a("- Command: `%s`, %s, %.1f minutes." % (data["command"], data["date"], data["elapsed_min"]))
    a("- Machine: %s, %d logical CPUs, %s MHz, %s memory; CPU flags: %s; timing CPU %d." % (
        m["cpu"], m["cores"], m["mhz"], m["memory"], m["flags"], m["timing_cpu"]))
    a("- `uname -a`: `%s`" % m["uname"])
    a("- Compiler: %s (`/usr/lib/llvm-%d/bin`); checkout `%s`; plugin %s; runtime %s." % (
        data["clang_version"], data["llvm"], data["git"], data["snapshot"]["plugin"],
        data["snapshot"]["runtime"]))
    a("- Kernels: `clang -O3 -fPIC%s`; %s." % (
        " " + data["cflags"] if data["cflags"] else "",
        "quick run (`--quick`)" if data["quick"] else
        "reduced run (`--reduced`)" if data.get("reduced") else "every size"))
    if data.get("native"):
        a("- **Native run** (`--native`): no valgrind, so no instruction counts; hot loops, "
          "misaligned input, the timing driver's verification and time ratios.")
    a("")
    a("Summary:")
    a("")
    for line in summary:
        a("- " + line)
    a("")


def write_misaligned(data, a, h):
    """What each build does on misaligned input (detect), with examples."""
    a("%s Misaligned input: what each build does" % h)
    a("")
    a("One call per kernel at the smallest size, every buffer 4 bytes past a 64-byte boundary; "
      "the result compared with plain's on aligned buffers.")
    a("")
    builds = ["plain", "abort", "fallback", "recover", "ubsan", "ubsan-trap"]
    a("| kernel | " + " | ".join(builds) + " |")
    a("|---" * (len(builds) + 1) + "|")
    for k in data["kernels"]:
        d = data["detect"][k["name"]]
        a("| %s | %s |" % (k["name"], " | ".join(d[b]["what"] for b in builds)))
    a("")
    examples = [data["detect"][k["name"]][b]["message"] for k in data["kernels"]
                for b in ("abort", "ubsan") if data["detect"][k["name"]][b]["message"]][:4]
    if examples:
        a("```")
        for msg in examples:
            a(re.sub(r"0x[0-9a-f]+", "0x...", msg.replace(data.get("root", "") + "/", "")))
        a("```")
        a("")


def write_compile(data, a, h):
    a("%s Compile time (items 2 and 4)" % h)
    a("")
    a("CPU seconds (user + system), medians of %s; each pair's two runs shared one CPU "
      "(quads); whole cost: the median pair's difference; align-guard's own time: the median "
      "of %d runs of `opt -passes='align-guard<deferred>'`; its instructions: callgrind of "
      "`opt -passes=align-guard` (%s, \"Compile time\")." % (
          runs_text(data), data["own_time_runs"], README))
    a("")
    a("| kernels | opt -O2 (s) | with the plugin (s) | whole cost | pairs (lowest .. highest) | align-guard's own time (s) | own / opt -O2 | align-guard's instructions | peak memory (MiB): without, with |")
    a("|---|---|---|---|---|---|---|---|---|")
    ct = data["compile"]
    for n in sorted(ct):
        c = ct[n]
        a("| %d | %.2f | %.2f | %+.1f%% | %s | %.3f | %.2f%% | %s | %s |" % (
            n, c["base"], c["plugin"], whole_cost(c), spread_text(c), c["own"],
            100 * c["own"] / c["base"], "{:,}".format(data["pass_instructions"][n]),
            memory_text(c)))
    a("")
    if data.get("compile_control"):
        a("- Noise floor: %s." % control_text(data["compile_control"]))
    a("- Lanes (each CPU's jobs and their wall-clock seconds): %s." % lanes_text(data))
    for g in data["growth"]:
        a("- %d -> %d kernels (x%.0f): align-guard's own time x%.2f, its instructions x%.3f, "
          "the whole cost x%.2f, opt -O2 itself x%.2f." % (g[0], g[1], g[1] / g[0], g[2], g[4],
                                                           g[3], g[5]))
    if data.get("compile_passes"):
        a("- Largest -time-passes differences (%d kernels, one run each): %s." % (
            data["compile_passes_kernels"],
            ", ".join("%s %+.2fs" % tuple(x) for x in data["compile_passes"])))
    if data.get("compile"):
        a("- Added peak memory: %s." % memory_growth_text(data["compile"]))
    a("")
    tv = data.get("compile_tvm") or {}
    if tv:
        a("TVM-shaped modules (`bench/gen_tvm_module.py`), the same measurement:")
        a("")
        table(a, ["functions", "opt -O2 (s)", "with the plugin (s)", "whole cost",
                  "pairs (lowest .. highest)", "align-guard's own time (s)", "pairs",
                  "peak memory (MiB): without, with"],
              [["%d" % n, "%.2f" % c["base"], "%.2f" % c["plugin"], "%+.1f%%" % whole_cost(c),
                spread_text(c), "%.3f" % c["own"], "%d" % c["runs"], memory_text(c)]
               for n, c in sorted(tv.items())])
    ci = data.get("compile_instr") or {}
    if ci:
        a("Instructions executed by the whole `opt -O2` (callgrind, one run each):")
        a("")
        table(a, ["module", "opt -O2 (instructions)", "with the plugin", "whole cost"],
              [[label, "%d" % r["base"], "%d" % r["plugin"], "%+.1f%%" % whole_cost(r)]
               for label, r in ci.items()])


def write_thirdparty(data, a, h):
    a("%s Third-party compile time (issue 13, item 5)" % h)
    a("")
    a("`clang -O2 -c%s` without and with the plugin (`align-guard<abort>`), pairs sharing one "
      "CPU; CPU time medians, the median pair's difference; `llvm-size` text and data; checks: "
      "the pass's `checked at site` remarks." % (" " + data["cflags"] if data["cflags"] else ""))
    a("")
    a("| translation unit | clang -O2 (s) | with the plugin (s) | cost | text (bytes) | with the plugin | data (bytes) | with the plugin | text + data growth | checks | pairs |")
    a("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, c in data["thirdparty"].items():
        a("| %s (`%s`) | %.3f | %.3f | %+.1f%% | %d | %d | %d | %d | %s | %d | %d |" % (
            name, c["src"], c["base"], c["plugin"], whole_cost(c), c["text_base"],
            c["text_plugin"], c["data_base"], c["data_plugin"], size_growth_text(c),
            c["checks"], c["runs"]))
    a("")


def write_per_place(data, a, h):
    a("%s Per-place instructions on aligned input (issue 13)" % h)
    a("")
    a("Instructions one call adds at the smallest size (callgrind, the build minus plain); k: "
      "the pointers checked (`checked at site` remarks), P: places; limit k + P, met at k + 2P "
      "at most (%s, \"Per-place instructions\")." % README)
    a("")
    a("| kernel | action | k (checked pointers) | places | placement | added instructions | limit (+1 per place allowed) | met |")
    a("|---|---|---|---|---|---|---|---|")
    for r in data["per_place"]:
        if "na" in r:
            a("| %s | %s | - | - | - | %s | - | n/a |" % (r["kernel"], r["action"], r["na"]))
        else:
            a("| %s | %s | %d | %d | %s | %+d | %d (+1) | %s |" % (
                r["kernel"], r["action"], r["k_checked"], r["places"], ", ".join(r["placements"]),
                r["added"], r["limit"], yes(r["met"])))
    a("")


def write_kernel_table(data, a, h, k):
    """One kernel's instruction and time ratios per size, code size, hot loop."""
    rows, name, variants = data["rows"], k["name"], data["variants"]
    a("%s %s (`bench/kernels/%s`)" % (h, name, k["src"]))
    a("")
    a("| size | plain: instructions / ns per call | " + " | ".join(variants[1:]) +
      " | noise: plain again, time |")
    a("|---" * (len(variants) + 2) + "|")
    for size in data["sizes"][name]:
        r = rows["%s:%d" % (name, size)]
        cells = ["%s / %s" % (fmt_ratio(r["ir_ratio"][v]), fmt_ratio(r["t_ratio"][v]))
                 if v in r["ir_ratio"] and v in r["t_ratio"] else "-" for v in variants[1:]]
        a("| %s | %d / %.0f | %s | %s |" % (
            case_label(k, size), r["ir"]["plain"], r["t"].get("plain", float("nan")),
            " | ".join(cells), fmt_ratio(r["t_ratio"].get("plain-again", float("nan")))))
    cs = data["code_size"]
    a("")
    a("Code size (bytes): " + ", ".join(
        "%s %d%s" % (b, cs[b][name][0], " + %d" % cs[b][name][1] if cs[b][name][1] else "")
        for b in data["builds"]) + ".")
    big = [rows["%s:%d" % (name, s)] for s in data["sizes"][name] if elements(k, s) >= 64 * KI]
    if big:
        r = big[0]
        a("Instruction overhead per call at %s: abort %+d, fallback %+d, ubsan %+d, "
          "ubsan-trap %+d." % (case_label(k, r["size"]), *[
              r["ir"][v] - r["ir"]["plain"] for v in ("abort", "fallback", "ubsan", "ubsan-trap")]))
    a(hot_loop_line(data, k))
    a("")


def write_warnings(data, a, h):
    if not data["warnings"]:
        return
    a("%s Compiler warnings while building the variants" % h)
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


def write_results(data, a, h="#", plot_path="overhead.png"):
    """A callgrind run's section (h: the level of its sub-headings)."""
    write_header(data, a, summary_lines(data))
    a("%s Targets (issue 5, item 3)" % h)
    a("")
    target_table(a, data["targets"])
    a("")
    a("%s Targets (issue 13, this major and target)" % h)
    a("")
    target_table(a, data["targets13"])
    a("| Every hot loop identical to plain's (abort, fallback) | the issue-5 row above | %s |"
      % yes(data["summary"]["loops_same"]))
    a("")
    if not all(tg["met"] for tg in data["targets"] + data["targets13"]):
        a("Why a target can be missed: %s, \"Why a target can be missed\"." % README)
        a("")
    write_per_place(data, a, h + "#")
    a("Observations:")
    a("")
    for line in observations(data):
        a("- " + line)
    a("")
    tm = data["timing"]
    a("%s Results per kernel" % h)
    a("")
    a("Cells: **instruction ratio / time ratio** to plain -O3; `-`: not run (the "
      "misaligned-input table). Time: medians of %d repetitions (at least 5 when a case would "
      "take over %.0f s), samples of about %g ms; variants: %s, \"Variants\"." % (
          tm["reps"], tm["budget_ms"] / 1000, tm["sample_ms"], README))
    a("")
    for k in data["kernels"]:
        write_kernel_table(data, a, h + "#", k)
    a("%s UBSan's alignment check: what clang emits and what -O3 leaves" % h)
    a("")
    a("| kernel | ubsan: emitted / after -O3 | ubsan-trap: emitted / after -O3 | hot loop vs plain (ubsan, ubsan-trap) |")
    a("|---|---|---|---|")
    for k in data["kernels"]:
        u, hl = data["ubsan_checks"][k["name"]], data["hot_loops"][k["name"]]
        a("| %s | %d / %d | %d / %d | %s, %s |" % (
            k["name"], u["ubsan"][0], u["ubsan"][1], u["ubsan-trap"][0], u["ubsan-trap"][1],
            hl["ubsan"]["verdict"], hl["ubsan-trap"]["verdict"]))
    a("")
    write_misaligned(data, a, h)
    if data.get("compile"):
        write_compile(data, a, h)
    if data.get("thirdparty"):
        write_thirdparty(data, a, h)
    write_warnings(data, a, h)
    a("![overhead against size](%s)" % plot_path)
    a("")


def write_native_results(data, a, h="#", plot_path=None):
    """A --native run's section: what it shows without instruction counts."""
    sm, rows = data["summary"], data["rows"]
    write_header(data, a, [
        hot_loop_summary(sm),
        "Aligned input, `abort` and `fallback`: median %+.1f%% (worst %+.1f%%) of plain -O3's "
        "time from 64 Ki elements up; plain timed again: %+.1f%% .. %+.1f%%." % (
            sm["aligned_time_median"], sm["aligned_time_worst"], *sm["noise"]),
        fallback_summary(sm)])
    a("%s Targets (issue 5, item 3, those a native run measures)" % h)
    a("")
    target_table(a, data["targets"])
    a("")
    a("%s Time per kernel" % h)
    a("")
    a("Time ratio to plain -O3 (median of %d repetitions); `-`: not run." % data["timing"]["reps"])
    names = [v for v in data["variants"] if v != "plain"]
    for k in data["kernels"]:
        a("")
        a("%s# %s (`bench/kernels/%s`)" % (h, k["name"], k["src"]))
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
    write_misaligned(data, a, h)
