"""``inscoqa serve``: run an engine standalone until Ctrl-C, for other tools to use."""

from __future__ import annotations

import argparse
import json
import signal
import threading


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve", help="run a chat engine (embedded llama.cpp or vLLM) until Ctrl-C"
    )
    parser.add_argument(
        "--engine",
        choices=["embedded", "vllm"],
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
    parser.add_argument("--json", action="store_true", help="print the endpoint as one JSON line")
    parser.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from serving.config import load_serving_config
    from serving.engines import get_engine

    flags = {k: v for k, v in vars(args).items() if k not in {"func", "command", "json"}}
    config = load_serving_config(flags)
    if config.engine == "external":
        config.engine = "embedded"
    if threading.current_thread() is threading.main_thread():
        signal.signal(
            signal.SIGINT, signal.default_int_handler
        )  # Ctrl-C even if inherited as ignored
    with get_engine(config.engine).launch(config) as endpoint:
        if args.json:
            print(
                json.dumps(
                    {
                        "engine": config.engine,
                        "base_url": endpoint.base_url,
                        "model": endpoint.model,
                    }
                ),
                flush=True,
            )
        else:
            print(
                f"{config.engine} engine serving {endpoint.model!r} at {endpoint.base_url}",
                flush=True,
            )
            print(
                f"use it with: INSCOQA_ENGINE={config.engine} INSCOQA_BASE_URL={endpoint.base_url}"
                f" INSCOQA_MODEL={endpoint.model}  (Ctrl-C to stop)",
                flush=True,
            )
        threading.Event().wait()
    return 0
