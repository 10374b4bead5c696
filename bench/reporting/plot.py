# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The plot of one run (overhead.png), from its measurements after
targets.analyse: the summary panel, then per kernel the instruction and
time overhead of every variant against size."""
import textwrap

from reporting.tables import summary_lines
from reporting.targets import elements


def summary_panel(data, ax, text_ax):
    """The first row: per kernel, the instruction overhead on aligned input
    of AlignGuard (`abort`) and UBSan at the largest sizes, and the summary."""
    pk = data["summary"]["per_kernel"]
    names = [k["name"] for k in data["kernels"]]
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
    text = "\n".join(textwrap.fill(l.replace("**", "").replace("`", ""), 80)
                     for l in summary_lines(data))
    text_ax.text(0, 1, text, va="top", fontsize=7.5)


def plot(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = data["rows"]
    fig, all_axes = plt.subplots(len(data["kernels"]) + 1, 2, figsize=(12, 3.1 * (len(data["kernels"]) + 1)),
                                 squeeze=False)
    summary_panel(data, all_axes[0][0], all_axes[0][1])
    axes = all_axes[1:]
    # Fixed colours and marks per variant, the same in every panel.
    styles = dict(zip(data["variants"][1:], [
        ("tab:blue", "o-"), ("tab:orange", "s-"), ("tab:green", "s--"), ("tab:red", "^-"),
        ("tab:purple", "^--"), ("tab:brown", "x-"), ("tab:pink", "d-")]))
    from matplotlib.ticker import FuncFormatter
    percent = FuncFormatter(lambda y, _: "%g%%" % y)
    for i, k in enumerate(data["kernels"]):
        sizes = data["sizes"][k["name"]]
        xs = [elements(k, s) for s in sizes]
        for j, (metric, title) in enumerate((("ir_ratio", "instructions"), ("t_ratio", "time"))):
            ax = axes[i][j]
            for v in data["variants"][1:]:
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
