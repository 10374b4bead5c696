# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whether a run meets the targets of issues 5 and 13: computation over the
numbers in a run's measurements.json (bench/run.py), nothing measured here.
analyse() (analyse_native() for a --native run) adds to the run's data the
rows per case, the targets ({target, measured, met}, and key for issue 13's)
and the summary figures that bench/report.py renders."""
import statistics

KI, MI = 1024, 1024 * 1024
# The actions of issue 13's per-place table.
PLACE_ACTIONS = ["abort", "recover", "return", "fallback"]


def ratio(a, b):
    return a / b if b else float("nan")


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


def find_kernel(data, name):
    return next(k for k in data["kernels"] if k["name"] == name)


def whole_cost(r):
    """{base, plugin} -> the plugin's cost in percent of base; a timed
    measurement's own estimate (cost: the median pair's) where it has one."""
    if "cost" in r:
        return r["cost"]
    return 100.0 * (r["plugin"] - r["base"]) / r["base"]


def added_seconds(c):
    """What the plugin adds to a timed measurement, in seconds."""
    return whole_cost(c) / 100 * c["base"]


def case_rows(data):
    """Per case (kernel:size): each variant's instructions (where callgrind
    counted them) and median time, and their ratios to plain's."""
    ir, times = data.get("instructions", {}), data["times"]
    rows = {}
    for k in data["kernels"]:
        for size in data["sizes"][k["name"]]:
            key = "%s:%d" % (k["name"], size)
            t_med = {v: statistics.median(s) for v, s in times.get(key, {}).items()}
            r = dict(kernel=k["name"], size=size, elements=elements(k, size),
                     ir={}, t={}, ir_ratio={}, t_ratio={})
            for v in data["variants"]:
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
                 for k in data["kernels"] for v in ("abort", "fallback")
                 if data["hot_loops"][k["name"]][v]["verdict"] != "identical"]
    return dict(
        target="... and the hot loop's machine code unchanged (same vector instructions, aligned where plain's are)",
        measured="identical for every kernel" if not differing else "differs: " + "; ".join(differing),
        met=not differing), differing


def fallback_correct_target(data):
    """Misaligned input with fallback: bit-identical to plain, on every
    kernel (one that reports and aborts instead does not fall back)."""
    wrong = [key for key, vs in data["verify"].items() if vs.get("fallback-misaligned", "ok") != "ok"]
    no_fallback = [k["name"] for k in data["kernels"] if "fallback-misaligned" in data["skips"].get(k["name"], [])]
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


def throughput_target(data, tp):
    """Misaligned input with fallback: at least 85% of the aligned path's
    throughput in every large case (tp: misaligned_throughput's first)."""
    low = [x for x in tp if x[0] < 0.85]
    worst_tp = min(tp, key=lambda x: x[0])
    return dict(
        target="Misaligned input, `fallback`: at least 85% of the aligned path's throughput "
               "from 64 Ki elements up",
        measured="worst %.0f%% (%s %s); below 85%% in %d of %d cases" % (
            100 * worst_tp[0], worst_tp[1]["kernel"],
            case_label(find_kernel(data, worst_tp[1]["kernel"]), worst_tp[1]["size"]), len(low), len(tp)),
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
                                                  case_label(find_kernel(data, worst[2]["kernel"]), worst[2]["size"])),
        met=worst[0] <= 0.01))
    targets.append(hot_loop)

    # 2. misaligned input, fallback: correct, and >= 85% of the aligned
    #    path's throughput from 64 Ki elements up.
    correct = fallback_correct_target(data)
    targets.append(correct)
    tp, free = misaligned_throughput(big)
    targets.append(throughput_target(data, tp))

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
            k, "%.1fx" % f if f != float("inf") else "inf", case_label(find_kernel(data, k), r["size"]),
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
            measured=", ".join("%d kernels %.2f%%" % (n, own_pct[n]) for n in ns),
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
            for k in data["kernels"]})


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
    data["targets"] = [hot_loop, correct] + ([throughput_target(data, tp)] if tp else [])
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
    for k in data["kernels"]:
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
