"""PNG plots of a benchmark summary (matplotlib, Agg backend; no display needed).

* ``domains.png``: JS and TCR per domain, one bar per system;
* ``distributions.png``: the distribution of JS, TCR and W-ROUGE-L per system;
* ``pairwise.png``: win / tie / loss stacked bars per system pair, as in AAG's figures;
* ``intervals.png``: each score column's mean per system with its bootstrap interval.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.ticker import MaxNLocator  # noqa: E402

WIN, TIE, LOSS = "#4c9a5a", "#b9b9b9", "#c8553d"
DPI = 110


def _colors(n: int) -> list[Any]:
    cmap = plt.get_cmap("tab10")
    return [cmap(i % 10) for i in range(n)]


def _value(x: float | None) -> float:
    return math.nan if x is None else float(x)


def plot_domains(summary: dict[str, Any], path: Path) -> Path:
    domains = list(summary["domains"])
    systems = list(summary["systems"])
    fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(domains) + 4), 4.2))
    width = 0.8 / max(1, len(systems))
    for ax, (key, label, top) in zip(axes, (("js", "Judge Score (1-10)", 10),
                                            ("tcr", "Task Completion Rate (%)", 100)),
                                     strict=True):
        for i, (system, color) in enumerate(zip(systems, _colors(len(systems)), strict=True)):
            values = [_value(summary["domains"][d][system][key]) for d in domains]
            xs = [j + (i - (len(systems) - 1) / 2) * width for j in range(len(domains))]
            bars = ax.bar(xs, [0 if math.isnan(v) else v for v in values], width,
                          label=system, color=color)
            for bar, v in zip(bars, values, strict=True):
                ax.annotate("n/a" if math.isnan(v) else f"{v:.1f}" if top == 10 else f"{v:.0f}",
                            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=7, xytext=(0, 2),
                            textcoords="offset points")
        counts = [next(iter(summary["domains"][d].values()))["n"] for d in domains]
        ax.set_xticks(range(len(domains)), [f"{d}\n(n={c})" for d, c in zip(domains, counts,
                                                                          strict=True)])
        ax.set_ylim(0, top * 1.12)
        ax.set_title(label)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Scores per domain")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def plot_distributions(summary: dict[str, Any], path: Path) -> Path:
    dist = summary["distributions"]
    systems = list(dist)
    colors = _colors(len(systems))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    ax = axes[0]
    width = 0.8 / max(1, len(systems))
    for i, (system, color) in enumerate(zip(systems, colors, strict=True)):
        scores = dist[system]["js"]
        counts = [sum(1 for s in scores if round(s) == k) for k in range(1, 11)]
        ax.bar([k + (i - (len(systems) - 1) / 2) * width for k in range(1, 11)], counts, width,
               label=f"{system} (n={len(scores)})", color=color)
    ax.set_xticks(range(1, 11))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("Judge Score")
    ax.set_ylabel("samples")
    ax.set_title("Judge Score")
    ax.legend(fontsize=8)
    for ax, key, label in ((axes[1], "tcr", "Task Completion Rate (%)"),
                           (axes[2], "w_rouge_l", "W-ROUGE-L")):
        data = [dist[s][key] or [math.nan] for s in systems]
        parts = ax.boxplot(data, patch_artist=True, widths=0.6)
        for patch, color in zip(parts["boxes"], colors, strict=True):
            patch.set_facecolor(color)
            patch.set_alpha(0.55)
        for i, values in enumerate(data, start=1):
            ax.scatter([i] * len(values), values, s=10, color="black", alpha=0.6, zorder=3)
        ax.set_xticks(range(1, len(systems) + 1), systems)
        ax.set_title(label)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Score distributions")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def plot_pairwise(summary: dict[str, Any], path: Path) -> Path:
    rows = summary["pairwise"]
    labels = [f"{r['a']} vs {r['b']}" for r in rows]
    fig, ax = plt.subplots(figsize=(9, 1.0 + 0.6 * len(rows)))
    left = [0.0] * len(rows)
    for key, label, color in (("win", "win", WIN), ("tie", "tie", TIE), ("loss", "loss", LOSS)):
        values = [r[key] for r in rows]
        bars = ax.barh(labels, values, left=left, color=color, label=label, height=0.55)
        for bar, v in zip(bars, values, strict=True):
            if v:
                ax.text(bar.get_x() + bar.get_width() / 2, bar.get_y() + bar.get_height() / 2,
                        str(v), ha="center", va="center", fontsize=9, color="white")
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.invert_yaxis()
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("samples (win / tie / loss of the first system)")
    ax.set_title("Pairwise comparison", loc="left")
    ax.legend(ncol=3, fontsize=8, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def plot_intervals(summary: dict[str, Any], path: Path) -> Path:
    """Mean and bootstrap interval of each score column per system (error bars)."""
    sig = summary["significance"]
    systems = list(sig["intervals"])
    columns = (("js", "Judge Score"), ("tcr", "TCR (%)"), ("w_rouge_l", "W-ROUGE-L"),
               ("c_rouge_l", "C-ROUGE-L"))
    fig, axes = plt.subplots(1, len(columns), figsize=(3.2 * len(columns), 3.6))
    for ax, (column, label) in zip(axes, columns, strict=True):
        for i, (system, color) in enumerate(zip(systems, _colors(len(systems)), strict=True)):
            ci = sig["intervals"][system].get(column)
            if ci is None:
                ax.annotate("n/a", (i, 0), ha="center", fontsize=8)
                continue
            ax.errorbar([i], [ci["mean"]], yerr=[[ci["mean"] - ci["low"]], [ci["high"] - ci["mean"]]],
                        fmt="o", color=color, capsize=5)
        ax.set_xticks(range(len(systems)), systems, rotation=20, fontsize=8)
        ax.set_xlim(-0.6, len(systems) - 0.4)
        ax.set_title(label, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(f"Means with {sig['level']:.0%} bootstrap intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def write_plots(summary: dict[str, Any], directory: str | Path) -> list[Path]:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = [plot_domains(summary, directory / "domains.png"),
             plot_distributions(summary, directory / "distributions.png")]
    if summary.get("significance"):
        paths.append(plot_intervals(summary, directory / "intervals.png"))
    if summary["pairwise"]:
        paths.append(plot_pairwise(summary, directory / "pairwise.png"))
    return paths
