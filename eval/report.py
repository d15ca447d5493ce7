"""Benchmark reports: a JSON summary, a Markdown report and PNG plots from a run's records.

The main table has InsCoQA's Table 3 columns per system (Judge Score, Task Completion Rate,
word- and character-level ROUGE-L) with coverage and failures beside them, and the cost. Means
are over the samples that have the value: JS and TCR over judged samples, ROUGE-L and retrieval
over answered ones; coverage says how many that is, so a failure is never silently dropped.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.bench.compare import tally
from eval.bench.keys import stable_hash
from eval.bench.records import (
    SampleRecord,
    read_extra_judges,
    read_howto,
    read_pairs,
    read_samples,
)
from eval.bench.runner import BenchOutcome
from eval.bench.store import write_json_atomic
from eval.significance import DEFAULT_ALPHA, compare_systems

TABLE3 = (("js", "JS"), ("tcr", "TCR"), ("w_rouge_l", "W-ROUGE-L"), ("c_rouge_l", "C-ROUGE-L"))
COST_FIELDS = ("calls", "cached_calls", "prompt_tokens", "completion_tokens", "seconds")
FAILURE_EXAMPLES = 5


@dataclass
class ReportFiles:
    dir: Path
    markdown: Path
    json: Path
    plots: list[Path] = field(default_factory=list)


# -- numbers ---------------------------------------------------------------------------------


def mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def stdev(values: list[float]) -> float | None:
    return statistics.stdev(values) if len(values) > 1 else None


def _judge_values(records: list[SampleRecord], field_name: str) -> list[float]:
    return [float(value) for r in records if r.status == "ok" and r.judge is not None
            and (value := getattr(r.judge, field_name)) is not None]


def _rouge_values(records: list[SampleRecord], level: str) -> list[float]:
    return [float(getattr(r.rouge, level)) for r in records if r.rouge is not None]


def _cost(records: list[SampleRecord], part: str) -> dict[str, float]:
    total = dict.fromkeys(COST_FIELDS, 0.0)
    for r in records:
        cost = (r.cost or {}).get(part) or {}
        for name in COST_FIELDS:
            total[name] += float(cost.get(name) or 0)
    total["seconds"] = round(total["seconds"], 3)
    return {k: (v if k == "seconds" else int(v)) for k, v in total.items()}


def score_summary(records: list[SampleRecord], n: int) -> dict[str, Any]:
    """Table-3 scores, coverage and failures of one system over ``n`` selected samples."""
    statuses = Counter(r.status for r in records)
    js, tcr = _judge_values(records, "score"), _judge_values(records, "tcr")
    answered = sum(1 for r in records if r.answer is not None)
    return {
        "n": n,
        "answered": answered,
        "judged": statuses.get("ok", 0),
        "coverage": statuses.get("ok", 0) / n if n else 0.0,
        "failures": {
            "answer_failed": statuses.get("answer_failed", 0),
            "judge_failed": statuses.get("judge_failed", 0),
            "transient": sum(1 for r in records if r.transient),
            "not_run": n - len(records),
        },
        "js": mean(js), "js_std": stdev(js),
        "tcr": mean(tcr), "tcr_std": stdev(tcr),
        "w_rouge_l": mean(_rouge_values(records, "word")),
        "c_rouge_l": mean(_rouge_values(records, "char")),
    }


def grounding_summary(records: list[SampleRecord]) -> dict[str, Any]:
    """Grounded-step rate: answer steps matched to a snippet of their sources, over all steps
    of the answers whose groundings were recorded (``samples`` of them)."""
    recorded = [r for r in records if r.groundings is not None]
    steps = sum(len(r.groundings or []) for r in recorded)
    grounded = sum(r.grounded_steps or 0 for r in recorded)
    return {"samples": len(recorded), "steps": steps, "grounded": grounded,
            "rate": grounded / steps if steps else None}


def _retrieval_order(key: str) -> tuple[int, int, str]:
    """recall@1, recall@3, ... recall, mrr."""
    if key.startswith("recall@") and key[7:].isdigit():
        return (0, int(key[7:]), key)
    return (1 if key == "recall" else 2, 0, key)


def system_summary(records: list[SampleRecord], n: int) -> dict[str, Any]:
    summary = score_summary(records, n)
    summary["grounding"] = grounding_summary(records)
    retrieval = [r.retrieval for r in records if r.retrieval]
    if retrieval:
        keys = sorted((k for k in retrieval[0] if k != "n_retrieved"), key=_retrieval_order)
        summary["retrieval"] = {k: mean([float(x[k]) for x in retrieval if x.get(k) is not None])
                                for k in keys}
    else:
        summary["retrieval"] = None
    answer_cost, judge_cost = _cost(records, "answer"), _cost(records, "judge")
    summary["cost"] = {
        "answer": answer_cost, "judge": judge_cost,
        "answer_calls_per_sample": answer_cost["calls"] / len(records) if records else None,
        "answer_seconds_per_sample": answer_cost["seconds"] / len(records) if records else None,
    }
    summary["failure_examples"] = [
        {"sample_id": r.sample_id, "status": r.status, "error": str(r.error)[:300],
         "raw": (r.judge.raw if r.judge is not None else "")[:300]}
        for r in records if r.status != "ok"][:FAILURE_EXAMPLES]
    return summary


def domain_summary(outcome: BenchOutcome,
                   typed: dict[str, list[SampleRecord]]) -> dict[str, dict[str, Any]]:
    domains: dict[str, int] = Counter(c.domain for c in outcome.conversations)
    order = list(dict.fromkeys(c.domain for c in outcome.conversations))
    table: dict[str, dict[str, Any]] = {}
    for domain in order:
        table[domain] = {
            name: score_summary([r for r in records if r.domain == domain], domains[domain])
            for name, records in typed.items()}
    return table


def pairwise_summary(outcome: BenchOutcome) -> list[dict[str, Any]]:
    n = len(outcome.conversations)
    rows = []
    for pair in outcome.pairs:
        records = outcome.pairwise.get((pair.a, pair.b), [])
        read_pairs(records, str(pair.dir / "results.jsonl"))  # checks every line's format
        counts = tally(records)
        counts["skipped"] += n - counts["n"]  # a system had no answer for these samples
        counts["n"] = n
        rows.append({"a": pair.a, "b": pair.b, "key": pair.key, **counts})
    return rows


def agreement_summary(outcome: BenchOutcome,
                      typed: dict[str, list[SampleRecord]]) -> dict[str, Any] | None:
    """Judge agreement on JS and on TCR: system ranking correlation and per-sample agreement of
    two judges (``js`` and ``tcr`` entries; the JS one is also at the top level)."""
    if outcome.second_judge is None:
        return None
    result: dict[str, Any] = {"judge": outcome.judge_config,
                              "second_judge": outcome.second_judge_config}
    for column, field_name, tolerance in (("js", "score", 1.0), ("tcr", "tcr", 10.0)):
        result[column] = _agreement(outcome, typed, field_name, tolerance)
    result.update({k: result["js"][k] for k in ("systems", "n_samples", "system_rank",
                                                "per_sample")})
    return result


def _agreement(outcome: BenchOutcome, typed: dict[str, list[SampleRecord]], field_name: str,
               tolerance: float) -> dict[str, Any]:
    from eval.agreement import per_sample_agreement, system_rank_agreement

    first: dict[str, float] = {}
    second: dict[str, float] = {}
    pairs_a: list[float] = []
    pairs_b: list[float] = []
    per_system: dict[str, Any] = {}
    for name, records in typed.items():
        rescored = read_extra_judges((outcome.second_judge or {}).get(name, []),
                                     f"{outcome.runs[name].dir} (second judge)")
        other = {r.sample_id: r.judge for r in rescored
                 if r.status == "ok" and r.judge is not None and r.judge.ok}
        both = [(float(getattr(r.judge, field_name)), float(getattr(other[r.sample_id], field_name)))
                for r in records if r.judged and r.judge is not None
                and r.sample_id in other]
        per_system[name] = {"n": len(both), "judged_by_second": len(other)}
        if both:
            first[name] = statistics.fmean(a for a, _ in both)
            second[name] = statistics.fmean(b for _, b in both)
            per_system[name].update(first=first[name], second=second[name])
            pairs_a += [a for a, _ in both]
            pairs_b += [b for _, b in both]
    return {"systems": per_system, "n_samples": len(pairs_a),
            "system_rank": (_plain(system_rank_agreement(first, second))
                            if len(first) >= 2 else None),
            "per_sample": (_plain(per_sample_agreement(pairs_a, pairs_b, tolerance=tolerance))
                           if pairs_a else None)}


def howto_summary(outcome: BenchOutcome) -> dict[str, Any] | None:
    if outcome.howto is None:
        return None
    table: dict[str, Any] = {}
    for name, stored in outcome.howto.items():
        records = read_howto(stored, f"{outcome.runs[name].dir} (how-to metrics)")
        scored = [r.howto for r in records if r.status == "ok" and r.howto]
        table[name] = {
            "n": len(scored), "failed": sum(1 for r in records if r.status != "ok"),
            **{k: mean([float(s[k]) for s in scored if s.get(k) is not None])
               for k in ("precision", "recall", "f1", "success")}}
    return table


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "_asdict"):
        return _plain(value._asdict())
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return _plain(dataclasses.asdict(value))
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def _extra_cost(outcome: BenchOutcome) -> dict[str, Any]:
    parts: dict[str, list[dict[str, Any]]] = {
        "pairwise": [r for recs in outcome.pairwise.values() for r in recs],
        "second_judge": [r for recs in (outcome.second_judge or {}).values() for r in recs],
        "howto": [r for recs in (outcome.howto or {}).values() for r in recs],
    }
    out = {}
    for name, records in parts.items():
        if records:
            total = Counter()
            for r in records:
                for k, v in (r.get("cost") or {}).items():
                    total[k] += v
            out[name] = {k: round(v, 3) if isinstance(v, float) else v for k, v in total.items()}
    return out


def sample_values(records: list[SampleRecord]) -> dict[str, dict[str, float]]:
    """Each score column's value per sample id (JS and TCR of judged samples, ROUGE-L of
    answered ones), for intervals and paired tests."""
    values: dict[str, dict[str, float]] = {column: {} for column, _ in TABLE3}
    for r in records:
        if r.status == "ok" and r.judge is not None:
            for column, name in (("js", "score"), ("tcr", "tcr")):
                if getattr(r.judge, name) is not None:
                    values[column][r.sample_id] = float(getattr(r.judge, name))
        if r.rouge is not None:
            values["w_rouge_l"][r.sample_id] = r.rouge.word
            values["c_rouge_l"][r.sample_id] = r.rouge.char
    return values


def truncated_samples(records: list[SampleRecord]) -> int:
    """Samples whose prompt was cut to fit the model's context window (paper protocol)."""
    return sum(1 for r in records
               if any((stage.get("details") or {}).get("truncated")
                      for stage in ((r.trace or {}).get("stages") or [])))


def protocol_of(config: dict[str, Any] | None) -> str | None:
    """The protocol mode of an answerer following the InsCoQA protocol, labelled; else None."""
    params = (config or {}).get("params") or {}
    if "protocol" not in params:
        return None
    from procmem.answerers.protocol import protocol_label

    return protocol_label(params)


def typed_results(outcome: BenchOutcome) -> dict[str, list[SampleRecord]]:
    """Each system's stored records read as :class:`SampleRecord` (the one reader; a record of
    an unknown format fails naming its file and version)."""
    return {name: read_samples(records, str(outcome.runs[name].dir / "results.jsonl"))
            for name, records in outcome.results.items()}


def summarize(outcome: BenchOutcome, *, alpha: float = DEFAULT_ALPHA,
              judge_check: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole report as plain JSON data."""
    n = len(outcome.conversations)
    typed = typed_results(outcome)
    systems = {name: system_summary(records, n) for name, records in typed.items()}
    for name, records in typed.items():
        systems[name]["protocol"] = protocol_of(outcome.runs[name].spec.get("answerer"))
        systems[name]["truncated"] = truncated_samples(records)
    distributions = {
        name: {"js": _judge_values(records, "score"), "tcr": _judge_values(records, "tcr"),
               "w_rouge_l": _rouge_values(records, "word"),
               "c_rouge_l": _rouge_values(records, "char")}
        for name, records in typed.items()}
    meta = {
        "data_id": outcome.data_id,
        "setting": outcome.setting,
        "n_conversations": n,
        "conversation_ids": [c.id for c in outcome.conversations],
        "judge": outcome.judge_config,
        "judge_hash": stable_hash(outcome.judge_config),
        "systems": {
            name: {"run_key": run.key, "dir": str(run.dir),
                   "config_hash": stable_hash(run.spec.get("answerer")),
                   "prompt_hash": _prompt_hash(run.spec.get("answerer") or {}),
                   "config": run.spec.get("answerer")}
            for name, run in outcome.runs.items()},
        "pairwise_runs": [p.key for p in outcome.pairs],
        "second_judge": outcome.second_judge_config,
        "howto": outcome.howto_config,
        "started_at": outcome.started_at,
        "finished_at": outcome.finished_at,
        "new_samples": dict(outcome.work),
        **outcome.metadata,
    }
    meta["report_key"] = report_key(outcome)
    return {
        "meta": meta,
        "systems": systems,
        "domains": domain_summary(outcome, typed),
        "pairwise": pairwise_summary(outcome),
        "agreement": agreement_summary(outcome, typed),
        "howto": howto_summary(outcome),
        "extra_cost": _extra_cost(outcome),
        "distributions": distributions,
        "significance": compare_systems(
            {name: sample_values(records) for name, records in typed.items()},
            alpha=alpha),
        "judge_check": judge_check,
    }


def _prompt_hash(config: dict[str, Any]) -> str | None:
    """One hash over the prompt templates an answerer uses (None when it uses none)."""
    prompts = config.get("prompts") or config.get("prompt_hashes")
    return stable_hash(prompts) if prompts else None


def report_key(outcome: BenchOutcome) -> str:
    return stable_hash({
        "runs": sorted(run.key for run in outcome.runs.values()),
        "pairs": [p.key for p in outcome.pairs],
        "second_judge": outcome.second_judge_config, "howto": outcome.howto_config,
        "ids": [c.id for c in outcome.conversations]})


# -- Markdown --------------------------------------------------------------------------------


def _num(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _failures(s: dict[str, Any]) -> str:
    f = s["failures"]
    parts = [f"{f[k]} {label}" for k, label in (("answer_failed", "answer"),
                                               ("judge_failed", "judge"),
                                               ("not_run", "not run")) if f[k]]
    return ", ".join(parts) if parts else "0"


def grounded_cell(grounding: dict[str, Any] | None) -> str:
    """``rate (grounded/steps)``, or – when no answer recorded its groundings."""
    if not grounding or grounding["rate"] is None:
        return "–"
    return f"{grounding['rate']:.0%} ({grounding['grounded']}/{grounding['steps']})"


def summary_table(summary: dict[str, Any]) -> str:
    """The main table: Table-3 scores, grounded steps, coverage, failures and cost per system."""
    rows = []
    for name, s in summary["systems"].items():
        cost = s["cost"]
        rows.append([
            name, _num(s["js"]), _num(s["tcr"], 1, "%"), _num(s["w_rouge_l"], 3),
            _num(s["c_rouge_l"], 3), grounded_cell(s.get("grounding")),
            f"{s['judged']}/{s['n']}", _failures(s),
            str(cost["answer"]["calls"] + cost["judge"]["calls"]),
            str(cost["answer"]["prompt_tokens"] + cost["answer"]["completion_tokens"]
                + cost["judge"]["prompt_tokens"] + cost["judge"]["completion_tokens"]),
            f"{cost['answer']['seconds'] + cost['judge']['seconds']:.1f}",
        ])
    return _table(["system", "JS", "TCR", "W-ROUGE-L", "C-ROUGE-L", "grounded steps", "judged",
                   "failures", "LLM calls", "tokens", "seconds (sum)"], rows)


COLUMN_LABELS = dict(TABLE3)


def _interval(value: dict[str, Any] | None, column: str) -> str:
    if value is None:
        return "–"
    digits, suffix = {"js": (2, ""), "tcr": (1, "%")}.get(column, (3, ""))
    return (f"{_num(value['mean'], digits, suffix)} "
            f"[{_num(value['low'], digits)}, {_num(value['high'], digits)}]")


def ci_table(summary: dict[str, Any]) -> str:
    """Every score column per system as mean [low, high] of its bootstrap interval."""
    sig = summary["significance"]
    rows = [[name] + [_interval(intervals.get(column), column) for column, _ in TABLE3]
            for name, intervals in sig["intervals"].items()]
    return _table(["system", *(label for _, label in TABLE3)], rows)


def significance_lines(summary: dict[str, Any]) -> list[str]:
    """One line per score column: which differences between systems are significant."""
    sig = summary["significance"]
    lines = []
    for column, label in TABLE3:
        diffs = [d for d in sig["differences"] if d["column"] == column]
        if not diffs:
            continue
        significant = [f"{d['a'] if d['mean_diff'] > 0 else d['b']} > "
                       f"{d['b'] if d['mean_diff'] > 0 else d['a']} "
                       f"(p={d['p_adjusted']:.3f}, n={d['n']})"
                       for d in diffs if d["significant"]]
        if significant:
            lines.append(f"{label}: " + "; ".join(significant))
        else:
            smallest = min((d["p_adjusted"] for d in diffs if d["p_adjusted"] is not None),
                           default=None)
            lines.append(f"{label}: no significant difference at {sig['alpha']:g}"
                         + (f" (smallest adjusted p={smallest:.3f})" if smallest is not None
                            else ""))
    return lines


def differences_table(summary: dict[str, Any]) -> str:
    rows = [[COLUMN_LABELS[d["column"]], d["a"], d["b"], str(d["n"]),
             _num(d["mean_diff"], 3), _num(d["p_value"], 3), _num(d["p_adjusted"], 3),
             "**yes**" if d["significant"] else "no"]
            for d in summary["significance"]["differences"]]
    return _table(["score", "system A", "system B", "paired samples", "mean A − B", "p",
                   "p (Holm)", "significant"], rows)


def protocol_lines(summary: dict[str, Any]) -> list[str]:
    """The protocol mode of each system that follows the InsCoQA protocol, and truncations."""
    lines = []
    for name, s in summary["systems"].items():
        if s.get("protocol"):
            cut = (f"; {s['truncated']} sample(s) cut to fit the context window"
                   if s["protocol"].startswith("paper") else "")
            lines.append(f"protocol of {name}: {s['protocol']}{cut}")
    return lines


def verdict_lines(summary: dict[str, Any]) -> list[str]:
    """What the console prints under the main table: intervals, which differences are
    significant, the protocol modes, the judge's note and the judge check's verdict."""
    sig = summary["significance"]
    lines = [f"{sig['level']:.0%} bootstrap intervals:", ci_table(summary), "",
             f"significant differences ({sig['test']}, alpha {sig['alpha']:g}):",
             *[f"  {line}" for line in significance_lines(summary)]]
    lines += protocol_lines(summary)
    if summary["meta"].get("judge_note"):
        lines.append(f"note: {summary['meta']['judge_note']}")
    if summary.get("judge_check"):
        lines.append(f"judge check: {summary['judge_check']['verdict']}")
    return lines


def pairwise_table(summary: dict[str, Any]) -> str:
    rows = [[r["a"], r["b"], str(r["win"]), str(r["loss"]), str(r["tie"]), str(r["skipped"]),
             str(r["failed"])] for r in summary["pairwise"]]
    return _table(["system A", "vs system B", "A wins", "A losses", "ties", "skipped", "failed"],
                  rows)


def render_markdown(summary: dict[str, Any], plots: list[Path] | None = None) -> str:
    meta = summary["meta"]
    out = [
        "# Benchmark report",
        "",
        f"Data `{meta['data_id']}` ({meta['n_conversations']} conversations), "
        f"setting **{meta['setting']}**, judge `{meta['judge'].get('model', '?')}` "
        f"(config `{meta['judge_hash']}`). Started {meta['started_at']}, finished "
        f"{meta['finished_at']}.",
        "",
        *([f"**Note:** {meta['judge_note']}.", ""] if meta.get("judge_note") else []),
        *[f"- {line}" for line in protocol_lines(summary)],
        "",
        "## Scores (InsCoQA Table 3 columns)",
        "",
        "JS = Judge Score (1-10), TCR = Task Completion Rate, both from the InsEval judge over the "
        "judged samples; ROUGE-L F1 over answered samples. *grounded steps*: the share of "
        "answer steps that match a snippet of the answer's sources (ROUGE-L > 0.7 or embedding "
        "distance < 0.25), over the answers that recorded it. *judged* is the coverage: samples "
        "the judge scored out of all selected; failures are counted, never dropped.",
        "",
        summary_table(summary),
        "",
        "## Confidence intervals and significant differences",
        "",
        f"Mean [{summary['significance']['level']:.0%} bootstrap interval] per system; "
        f"differences between systems by a {summary['significance']['test']}, significant at "
        f"{summary['significance']['alpha']:g}. Few conversations give wide intervals: a "
        "difference that is not significant is not a ranking.",
        "",
        ci_table(summary),
        "",
        *[f"- {line}" for line in significance_lines(summary)],
        "",
    ]
    if summary["significance"]["differences"]:
        out += [differences_table(summary), ""]
    if summary.get("judge_check"):
        from eval.judge_check import JudgeCheck, check_lines

        check = JudgeCheck(**summary["judge_check"])
        out += ["## Judge check", "",
                f"The judge scored answers of known quality built from the references of "
                f"{check.n_conversations} conversations before the run.", "",
                *check_lines(check), ""]
    if any(s.get("retrieval") for s in summary["systems"].values()):
        keys = next(s["retrieval"] for s in summary["systems"].values() if s.get("retrieval"))
        rows = [[name] + [_num((s.get("retrieval") or {}).get(k), 3) for k in keys]
                for name, s in summary["systems"].items()]
        out += ["## Retrieval of the reference documents", "",
                _table(["system", *keys], rows), ""]
    out += ["## Per domain", ""]
    systems = list(summary["systems"])
    rows = []
    for domain, by_system in summary["domains"].items():
        first = next(iter(by_system.values()))
        rows.append([domain, str(first["n"])] + [
            f"{_num(by_system[s]['js'])} / {_num(by_system[s]['tcr'], 1, '%')}" for s in systems])
    out += ["JS / TCR per domain.", "", _table(["domain", "n", *systems], rows), ""]
    if summary["pairwise"]:
        out += ["## Pairwise comparison", "",
                "Majority of 10 judge calls per sample (order swapped in half, fixed seeds, "
                "reference steps not shown), counted from system A's side.", "",
                pairwise_table(summary), ""]
    if summary["agreement"]:
        a = summary["agreement"]
        out += ["## Judge agreement", "",
                f"Second judge `{(a['second_judge'] or {}).get('model', '?')}` on "
                f"{a['n_samples']} samples judged by both.", ""]
        rows = [[name, str(v["n"]), _num(v.get("first")), _num(v.get("second"))]
                for name, v in a["systems"].items()]
        out += [_table(["system", "n", "JS judge 1", "JS judge 2"], rows), ""]
        out += [f"- JS system ranking: {_kv(_pick(a['system_rank'], RANK_KEYS))}",
                f"- JS per sample: {_kv(_pick(a['per_sample'], SAMPLE_KEYS))}"]
        if a.get("tcr"):
            out += [f"- TCR system ranking: {_kv(_pick(a['tcr']['system_rank'], RANK_KEYS))}",
                    f"- TCR per sample (tolerance 10 points): "
                    f"{_kv(_pick(a['tcr']['per_sample'], SAMPLE_KEYS))}"]
        out.append("")
    if summary["howto"]:
        rows = [[name, str(v["n"]), str(v["failed"])] + [_num(v[k], 3) for k in
                                                         ("precision", "recall", "f1", "success")]
                for name, v in summary["howto"].items()]
        out += ["## Linear how-to metrics", "",
                _table(["system", "n", "failed", "precision", "recall", "F1", "success"], rows), ""]
    out += _cost_section(summary)
    examples = [(name, e) for name, s in summary["systems"].items() for e in s["failure_examples"]]
    if examples:
        out += ["## Failures (first examples)", ""]
        out += [f"- `{name}` `{e['sample_id']}` {e['status']}: {e['error']}"
                + (f" — raw reply: `{_oneline(e['raw'])}`" if e["raw"] else "")
                for name, e in examples]
        out.append("")
    if plots:
        out += ["## Plots", ""]
        out += [f"![{p.stem}](plots/{p.name})" for p in plots]
        out.append("")
    out += _meta_section(meta)
    return "\n".join(out)


RANK_KEYS = ("n_systems", "kendall", "spearman", "ranking_a", "ranking_b")
SAMPLE_KEYS = ("n", "exact", "within_tolerance", "mean_abs_diff", "pairwise_concordance",
               "kendall", "spearman")


def _pick(value: dict[str, Any] | None, keys: tuple[str, ...]) -> dict[str, Any] | None:
    return None if value is None else {k: value[k] for k in keys if k in value}


def _kv(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_num(v, 3) if isinstance(v, float) else _list(v)}"
                         for k, v in value.items())
    return str(value)


def _list(value: Any) -> str:
    return " > ".join(map(str, value)) if isinstance(value, list) else str(value)


def _oneline(text: str) -> str:
    return " ".join(text.split()).replace("`", "'")[:160]


def _cost_section(summary: dict[str, Any]) -> list[str]:
    rows = []
    for name, s in summary["systems"].items():
        for part in ("answer", "judge"):
            c = s["cost"][part]
            rows.append([name, part, str(c["calls"]), str(c["cached_calls"]),
                         str(c["prompt_tokens"]), str(c["completion_tokens"]),
                         f"{c['seconds']:.1f}"])
    out = ["## Cost", "", "Calls answered by the engine (cache hits counted apart), tokens and "
           "wall-clock seconds per sample (waiting for the engine included), summed over "
           "samples; samples run concurrently, so the sum exceeds the run's duration.", "",
           _table(["system", "part", "LLM calls", "cache hits", "prompt tokens",
                   "completion tokens", "seconds"], rows), ""]
    if summary["extra_cost"]:
        out += [f"- {name}: {_kv(cost)}" for name, cost in summary["extra_cost"].items()]
        out.append("")
    return out


def _meta_section(meta: dict[str, Any]) -> list[str]:
    rows = [[name, f"`{m['run_key']}`", f"`{m['config_hash']}`",
             f"`{m['prompt_hash']}`" if m.get("prompt_hash") else "–",
             f"`{(m.get('config') or {}).get('model') or '–'}`"]
            for name, m in meta["systems"].items()]
    out = ["## Run metadata", "",
           _table(["system", "run key", "config hash", "prompt hash", "model"], rows), "",
           f"- data id: `{meta['data_id']}`",
           f"- judge config: `{meta['judge_hash']}` {_kv(meta['judge'])}",
           f"- report key: `{meta['report_key']}`",
           f"- new samples this run: {_kv(meta['new_samples'])}"]
    for key in ("data", "limit", "command", "memory"):
        if meta.get(key) is not None:
            out.append(f"- {key}: `{meta[key]}`")
    out.append("")
    return out


# -- files -----------------------------------------------------------------------------------


def write_report(outcome: BenchOutcome, out_dir: str | Path | None = None, *,
                 plots: bool = True, alpha: float = DEFAULT_ALPHA,
                 judge_check: dict[str, Any] | None = None) -> tuple[dict[str, Any], ReportFiles]:
    """Write ``report.json``, ``report.md`` and ``plots/*.png``; return the summary and paths."""
    summary = summarize(outcome, alpha=alpha, judge_check=judge_check)
    base = Path(out_dir) if out_dir is not None else (
        next(iter(outcome.runs.values())).dir.parent / f"report-{summary['meta']['report_key']}")
    base.mkdir(parents=True, exist_ok=True)
    pngs: list[Path] = []
    if plots:
        from eval.plots import write_plots

        pngs = write_plots(summary, base / "plots")
    files = ReportFiles(dir=base, markdown=base / "report.md", json=base / "report.json",
                        plots=pngs)
    write_json_atomic(files.json, summary)
    tmp = files.markdown.with_suffix(".md.tmp")
    tmp.write_text(render_markdown(summary, pngs), encoding="utf-8")
    tmp.replace(files.markdown)
    return summary, files
