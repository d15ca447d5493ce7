"""Export a GGUF chat model to a Hugging Face safetensors directory (for engines such as vLLM).

Needs ``transformers`` and ``gguf``. The weights are dequantised to float32; the chat template
stored in the GGUF file travels with the tokenizer.

    python -m serving.engines.gguf_export OUT_DIR [--gguf PATH]   # default: the bundled SmolLM2
"""

from __future__ import annotations

import argparse
from pathlib import Path


def gguf_chat_template(gguf_path: Path) -> str | None:
    """The ``tokenizer.chat_template`` string of a GGUF file, if it has one."""
    from gguf import GGUFReader

    field = GGUFReader(str(gguf_path)).fields.get("tokenizer.chat_template")
    if field is None:
        return None
    return bytes(field.parts[field.data[0]]).decode("utf-8")


def export_gguf(gguf_path: Path, out_dir: Path) -> Path:
    """Write ``config.json``, ``model.safetensors`` and the tokenizer files to ``out_dir``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf_path = Path(gguf_path)
    out_dir = Path(out_dir)
    tokenizer = AutoTokenizer.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name)
    if not getattr(tokenizer, "chat_template", None):
        tokenizer.chat_template = gguf_chat_template(gguf_path)
    model = AutoModelForCausalLM.from_pretrained(
        gguf_path.parent, gguf_file=gguf_path.name, dtype=torch.float32
    )
    # The weights are dequantised in memory: drop the GGUF quantizer so they save as plain tensors.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def main(argv: list[str] | None = None) -> None:
    from serving.engines.embedded import bundled_model_path

    parser = argparse.ArgumentParser(description="Export a GGUF model to a safetensors directory.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--gguf", type=Path, default=None, help="default: the bundled SmolLM2 GGUF")
    args = parser.parse_args(argv)
    out = export_gguf(args.gguf or bundled_model_path(), args.out_dir)
    print(out)


if __name__ == "__main__":
    main()
