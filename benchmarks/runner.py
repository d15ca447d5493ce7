"""Benchmark-runner throughput and cache speed-up against a local fake server with fixed latency.

Each sample is one answer call plus the judge's call(s) to a local OpenAI-compatible server
(``serving.fake_server``) that waits a fixed latency before replying, so the runner's own cost is
what is measured. The reference is measured in the same run: the mean round-trip time of single
client calls to the same server. Ideal throughput at concurrency c is
``c / (calls per sample x round trip)``; efficiency = measured / ideal (target >= 0.8 at 16).

The client-only column is the same calls made by the client from the same number of threads
without the runner: the part of the gap to the ideal that the HTTP stack itself accounts for.

Cache speed-up: the same run in a fresh results directory with the response cache warm (every
LLM call is a cache hit) against the cold run at concurrency 1 (target >= 100x); and a finished
run re-run (results store: nothing to do) against the cold run.

Ray (``--ray``): the same samples answered by the extractive answerer and judged, once by the
thread runner and once by the Ray runner (``inscoqa bench --ray``: a Ray Data actor pool on a
local Ray instance with 2 CPUs) at the same concurrency; the Ray time includes starting the
actors (each run starts its pool), the Ray instance is started before timing.

    python benchmarks/runner.py [--samples 96] [--latency 0.05] [--repeats 3] [--ray] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.bench import BenchOutcome, BenchRunner  # noqa: E402
from inscoqa.bundled import corpus_index, load_sample  # noqa: E402
from inscoqa.records import Conversation  # noqa: E402
from procmem.answerers.base import Answer, AnswerRequest, Trace, record_call  # noqa: E402
from serving import ServingConfig, connect  # noqa: E402
from serving.fake_server import FakeLLMServer  # noqa: E402
from serving.types import ChatModel  # noqa: E402

ANSWER_MARKER = "BENCH-ANSWER"


# -- the fake model's replies ----------------------------------------------------------------


def _instance(schema: dict[str, Any], seed: str) -> Any:
    """A deterministic value valid under a simple JSON schema."""
    h = int(hashlib.sha256(seed.encode()).hexdigest()[:8], 16)
    if "enum" in schema:
        return schema["enum"][h % len(schema["enum"])]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _instance(schema[key][0], seed)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        return {k: _instance(v, seed + k) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [_instance(schema.get("items", {"type": "string"}), f"{seed}{i}")
                for i in range(max(1, int(schema.get("minItems", 1))))]
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", 0), schema.get("maximum", 100)
        value = low + h % (int(high - low) + 1)
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return bool(h % 2)
    return f"item {h % 97}"


def fake_reply(body: dict[str, Any]) -> str:
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    if ANSWER_MARKER in prompt:
        return "Open the settings, choose the option, and save. " + prompt[-60:]
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
    if schema:
        return json.dumps(_instance(schema, prompt))
    return "Feedback: clear answer.\nTotal rating: 7\nTask completion rate: 80"


# -- a one-call answerer ---------------------------------------------------------------------


class OneCallAnswerer:
    """One LLM call per answer, so a sample's work is known: 1 answer call + the judge's."""

    name = "one-call"

    def __init__(self, llm: ChatModel) -> None:
        self.llm = llm

    def answer(self, request: AnswerRequest) -> Answer:
        trace = Trace()
        with trace.stage("answer") as stage:
            result = record_call(stage, self.llm.chat(
                [{"role": "user", "content": f"{ANSWER_MARKER}\n{request.question}"}]))
        return Answer(answer=result.text, procedures=result.text.split(", "), trace=trace)

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.llm.model}


# -- measurements ----------------------------------------------------------------------------


def conversations(n: int) -> list[Conversation]:
    """``n`` distinct conversations (bundled ones, copied with new ids when more are needed)."""
    base = load_sample()
    out = []
    for i in range(n):
        conv = base[i % len(base)]
        out.append(dataclasses.replace(conv, id=f"{conv.id}-b{i}",
                                       question=f"{conv.question} (variant {i})"))
    return out


def round_trip(config: ServingConfig, calls: int = 20) -> float:
    """Mean seconds of one uncached client call to the server (the reference)."""
    with connect(config) as client:
        times = []
        for i in range(calls):
            start = time.perf_counter()
            client.chat([{"role": "user", "content": f"ping {i}"}], use_cache=False)
            times.append(time.perf_counter() - start)
    return statistics.fmean(times)


def warm_up(client: ChatModel, concurrency: int) -> None:
    """Open the client's connections before timing: the fake server's accept backlog is small,
    and a burst of new connections can wait a second for a SYN retry."""
    with ThreadPoolExecutor(concurrency) as pool:
        for _ in range(2):
            list(pool.map(lambda i: client.chat([{"role": "user", "content": f"warm {i}"}],
                                                use_cache=False), range(concurrency)))


def timed_run(config: ServingConfig, convs: list[Conversation], out: Path,
              concurrency: int, *, warm: bool = True) -> tuple[float, BenchOutcome]:
    with connect(dataclasses.replace(config, concurrency=concurrency)) as client:
        if warm:
            warm_up(client, concurrency)
        runner = BenchRunner(conversations=convs, data_id="bench", judge_llm=client,
                             answerers={"one-call": OneCallAnswerer(client)},
                             documents=corpus_index().resolve, out_dir=out,
                             concurrency=concurrency, progress=False)
        start = time.perf_counter()
        outcome = runner.run()
        return time.perf_counter() - start, outcome


CEILING_SCHEMA = {"type": "object", "properties": {"rating": {"type": "integer"}},
                  "required": ["rating"]}


def client_ceiling(config: ServingConfig, samples: int, concurrency: int) -> float:
    """Seconds the client alone takes for the same calls (a plain call then a schema call per
    sample) from the same number of threads: what the runner could reach at best."""
    with connect(dataclasses.replace(config, concurrency=concurrency)) as client:
        warm_up(client, concurrency)

        def sample(i: int) -> None:
            client.chat([{"role": "user", "content": f"{ANSWER_MARKER}\nceiling {i}"}])
            client.chat([{"role": "user", "content": f"rate {i}"}], schema=CEILING_SCHEMA)

        start = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(sample, range(samples)))
        return time.perf_counter() - start


def calls_per_sample(outcome: BenchOutcome) -> float:
    records = outcome.results["one-call"]
    calls = [(r["cost"]["answer"] or {}).get("calls", 0) + (r["cost"]["judge"] or {}).get("calls", 0)
             for r in records]
    return statistics.fmean(calls)


def ray_comparison(config: ServingConfig, convs: list[Conversation], root: Path,
                   concurrency: int) -> dict[str, Any]:
    """Seconds of the thread runner and of the Ray runner for the same run (extractive answers,
    one judge call each) at the same concurrency, each in a fresh results directory."""
    import os

    import ray

    from eval.bench.ray_runner import RayBenchRunner, WorkerSpec
    from procmem.answerers import make_answerer
    from serving.pool import ClientPool

    config = dataclasses.replace(config, concurrency=concurrency)
    common = {"conversations": convs, "data_id": "bench", "documents": corpus_index().resolve,
              "concurrency": concurrency, "progress": False}
    timings: dict[str, Any] = {"concurrency": concurrency}
    with ClientPool() as clients:
        llm = clients.model(dataclasses.replace(config, cache_dir=str(root / "cache-threads")))
        runner = BenchRunner(answerers={"extractive": make_answerer("extractive")},
                             judge_llm=llm, out_dir=root / "runs-threads", **common)
        start = time.perf_counter()
        outcome = runner.run()
        timings["threads_s"] = time.perf_counter() - start
        timings["threads_new_samples"] = outcome.new_samples
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ray_config = dataclasses.replace(config, cache_dir=str(root / "cache-ray"))
        with ClientPool() as clients:
            runner = RayBenchRunner(
                worker=WorkerSpec(serving=ray_config, judge=ray_config,
                                  systems={"extractive": {}}),
                clients=clients, answerers={"extractive": make_answerer("extractive")},
                judge_llm=clients.model(ray_config), out_dir=root / "runs-ray", **common)
            start = time.perf_counter()
            outcome = runner.run()
            timings["ray_s"] = time.perf_counter() - start
            timings["ray_new_samples"] = outcome.new_samples
    finally:
        ray.shutdown()
    timings["ray_vs_threads"] = timings["threads_s"] / timings["ray_s"]
    return timings


def serve(latency: float) -> None:
    """Run the fake server in this process (the benchmark starts it as a child process, so the
    server's threads do not compete with the runner's for the interpreter lock)."""
    with FakeLLMServer(latency_s=latency, default=fake_reply) as server:
        print(server.base_url, flush=True)
        for _ in sys.stdin:  # each line asks for the request count; EOF stops the server
            print(server.request_count, flush=True)


class ServerProcess:
    """The fake server in a child process; ``requests()`` asks it how many it has answered."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        assert proc.stdout is not None and proc.stdin is not None
        self.stdin, self.stdout = proc.stdin, proc.stdout
        self.base_url = self.stdout.readline().strip()

    def requests(self) -> int:
        self.stdin.write("count\n")
        self.stdin.flush()
        return int(self.stdout.readline())


@contextmanager
def server_process(latency: float) -> Iterator[ServerProcess]:
    proc = subprocess.Popen([sys.executable, __file__, "--serve", "--latency", str(latency)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        yield ServerProcess(proc)
    finally:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=96)
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs per concurrency level above 1 (the median is reported)")
    parser.add_argument("--latency", type=float, default=0.05, help="server seconds per reply")
    parser.add_argument("--concurrency", default="1,4,16")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ray", action="store_true",
                        help="also compare the Ray runner with the thread runner")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.latency)
        return 0
    levels = [int(c) for c in args.concurrency.split(",")]
    convs = conversations(args.samples)
    corpus_index().resolve(convs[0])  # read the documents once, outside the timings
    for conv in convs[: len(load_sample())]:
        corpus_index().resolve(conv)
    report: dict[str, Any] = {"samples": args.samples, "latency_s": args.latency}
    with tempfile.TemporaryDirectory() as tmp, server_process(args.latency) as server:
        root = Path(tmp)
        base = ServingConfig(engine="external", base_url=server.base_url, model="fake-model",
                             cache_dir=str(root / "cache-ref"), retries=0)
        rtt = round_trip(base)
        report["round_trip_s"] = rtt
        rows = []
        cold_at_1: tuple[float, Path, ServingConfig] | None = None
        for c in levels:
            # one cold run at concurrency 1 (it is long); the median of 3 above (short, noisy)
            timings = []
            for i in range(1 if c == 1 else args.repeats):
                config = dataclasses.replace(base, cache_dir=str(root / f"cache-{c}-{i}"))
                out = root / f"runs-{c}-{i}"
                seconds, outcome = timed_run(config, convs, out, c)
                timings.append((seconds, out, config, outcome))
            seconds, out, config, outcome = sorted(timings, key=lambda t: t[0])[len(timings) // 2]
            ceiling = statistics.median(
                client_ceiling(dataclasses.replace(base, cache_dir=str(root / f"ceil-{c}-{i}")),
                               args.samples, c)
                for i in range(1 if c == 1 else args.repeats))
            per_sample = calls_per_sample(outcome)
            ideal = c / (per_sample * rtt)
            measured = args.samples / seconds
            rows.append({"concurrency": c, "seconds": seconds, "samples_per_s": measured,
                         "ideal_samples_per_s": ideal, "efficiency": measured / ideal,
                         "client_only_samples_per_s": args.samples / ceiling,
                         "vs_client_only": ceiling / seconds,
                         "calls_per_sample": per_sample})
            if c == levels[0]:
                cold_at_1 = (seconds, out, config)
        report["throughput"] = rows
        assert cold_at_1 is not None
        cold, finished_out, config = cold_at_1
        # the cache figures are medians of 3 runs (they are short, so disk noise matters)
        warm_runs = [timed_run(config, convs, root / f"runs-warm-{i}", levels[0], warm=False)
                     for i in range(3)]
        warm = statistics.median(t for t, _ in warm_runs)
        hits = sum((r["cost"]["answer"] or {}).get("cached_calls", 0)
                   + (r["cost"]["judge"] or {}).get("cached_calls", 0)
                   for r in warm_runs[0][1].results["one-call"])
        requests_before = server.requests()
        finished_runs = [timed_run(config, convs, finished_out, levels[0], warm=False)
                         for _ in range(3)]
        finished = statistics.median(t for t, _ in finished_runs)
        report["cache"] = {
            "cold_s": cold, "warm_cache_s": warm, "warm_cache_speedup": cold / warm,
            "cache_hits": hits, "finished_rerun_s": finished,
            "finished_rerun_speedup": cold / finished,
            "finished_rerun_requests": server.requests() - requests_before,
            "finished_rerun_new_samples": sum(o.new_samples for _, o in finished_runs),
        }
        if args.ray:
            report["ray"] = ray_comparison(base, convs, root, levels[-1])
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.samples} samples, server latency {args.latency * 1000:.0f} ms, "
          f"measured round trip {rtt * 1000:.1f} ms (reference)\n")
    print("| concurrency | seconds | samples/s | ideal samples/s | efficiency | "
          "client-only samples/s | runner / client-only | calls/sample |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['concurrency']} | {r['seconds']:.2f} | {r['samples_per_s']:.1f} | "
              f"{r['ideal_samples_per_s']:.1f} | {r['efficiency']:.2f} | "
              f"{r['client_only_samples_per_s']:.1f} | {r['vs_client_only']:.2f} | "
              f"{r['calls_per_sample']:.1f} |")
    cache = report["cache"]
    print(f"\ncold run at concurrency {levels[0]}: {cache['cold_s']:.2f} s")
    print(f"fresh results dir, warm response cache ({cache['cache_hits']} hits): "
          f"{cache['warm_cache_s']:.3f} s -> speed-up {cache['warm_cache_speedup']:.0f}x "
          f"(target >= 100x)")
    print(f"finished run re-run: {cache['finished_rerun_s']:.3f} s -> speed-up "
          f"{cache['finished_rerun_speedup']:.0f}x, {cache['finished_rerun_requests']} requests, "
          f"{cache['finished_rerun_new_samples']} new samples")
    if "ray" in report:
        r = report["ray"]
        print(f"\nextractive + judge, {args.samples} samples at concurrency {r['concurrency']}: "
              f"thread runner {r['threads_s']:.2f} s, Ray runner {r['ray_s']:.2f} s "
              f"(actor start-up included) -> Ray / threads throughput {r['ray_vs_threads']:.2f}")
    top = rows[-1]
    print(f"efficiency at concurrency {top['concurrency']}: {top['efficiency']:.2f} "
          f"(target >= 0.8)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
