"""``inscoqa serve``: run an engine standalone until Ctrl-C, for other tools to use."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

from inscoqa.cli.options import STARTED_ENGINES, first_line

if TYPE_CHECKING:
    from serving.engines import Endpoint


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve", help="run a chat engine (embedded llama.cpp or vLLM) until Ctrl-C"
    )
    parser.add_argument(
        "--engine",
        choices=STARTED_ENGINES,
        default=None,
        help="engine to run (default: the configured one, else embedded)",
    )
    parser.add_argument("--model", help="GGUF path (embedded) or model id/dir (vllm)")
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default: a free one)")
    parser.add_argument("--api-key", dest="api_key", help="require this bearer key")
    parser.add_argument("--n-ctx", dest="n_ctx", type=int, help="context size (embedded)")
    parser.add_argument(
        "--tensor-parallel-size", dest="tensor_parallel_size", type=int, help="GPUs (vllm)"
    )
    parser.add_argument(
        "--max-model-len", dest="max_model_len", type=int, help="max context (vllm)"
    )
    parser.add_argument(
        "--dtype", help="weights dtype, e.g. auto, float16, bfloat16, float32 (vllm)"
    )
    parser.add_argument(
        "--enforce-eager",
        dest="enforce_eager",
        action="store_true",
        default=None,
        help="disable CUDA graphs (vllm; needed on CPU)",
    )
    parser.add_argument(
        "--startup-timeout",
        dest="startup_timeout_s",
        type=float,
        help="seconds to wait until the engine answers",
    )
    parser.add_argument(
        "--replicas", type=int, default=1,
        help="start N servers of the engine (each with --tensor-parallel-size GPUs for vllm) "
             "behind vllm-router, which keeps each conversation on one replica "
             "(pip install 'inscoqa[router]')",
    )
    parser.add_argument("--json", action="store_true", help="print the endpoint as one JSON line")
    parser.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from serving.config import load_serving_config
    from serving.engines import get_engine
    from serving.errors import LLMError

    flags = {k: v for k, v in vars(args).items()
             if k not in {"func", "command", "json", "replicas"}}
    config = load_serving_config(flags)
    if config.engine == "external":
        config.engine = "embedded"
    if threading.current_thread() is threading.main_thread():
        signal.signal(
            signal.SIGINT, signal.default_int_handler
        )  # Ctrl-C even if inherited as ignored
    try:
        launched = get_engine(config.engine).launch(config)
        label = config.engine
        if args.replicas != 1:
            from serving.router import replicas

            launched = replicas(config, args.replicas)
            label = f"{config.engine} x{args.replicas} behind vllm-router"
        with launched as endpoint:
            announce(label, endpoint, as_json=args.json)
            while True:  # until Ctrl-C, or until the engine dies
                time.sleep(1.0)
                if endpoint.check is not None:
                    endpoint.check()
    except LLMError as exc:
        print(f"inscoqa serve: {first_line(exc)}", file=sys.stderr)
        return 1
    except ValueError as exc:  # a bad setting (e.g. --replicas 0, the router not installed)
        print(f"inscoqa serve: {first_line(exc)}", file=sys.stderr)
        return 2
    return 0


def announce(engine: str, endpoint: Endpoint, *, as_json: bool) -> None:
    """Where the engine answers: its OpenAI base URL (with /v1) and the model name."""
    openai_url = endpoint.base_url + "/v1"
    if as_json:
        print(json.dumps({"engine": engine, "base_url": openai_url, "model": endpoint.model}),
              flush=True)
        return
    print(f"{engine} engine serving {endpoint.model!r} at {openai_url} (OpenAI-compatible)",
          flush=True)
    print(f"use it with: INSCOQA_ENGINE=external INSCOQA_BASE_URL={openai_url} "
          f"INSCOQA_MODEL={endpoint.model}  (Ctrl-C to stop)", flush=True)
