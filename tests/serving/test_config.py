"""Configuration layering (flags > env > file > defaults) and `inscoqa config show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inscoqa.cli import main
from serving import ServingConfig, load_serving_config
from serving.config import ConfigError, config_sources, load_section


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "inscoqa.toml"
    path.write_text(
        '[serving]\nmodel = "from-file"\ntimeout_s = 11\nretries = 7\nconcurrency = 2\n'
        '[judge]\nbase_url = "http://judge.example/v1"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("INSCOQA_CONFIG", str(path))
    for name in (
        "INSCOQA_MODEL",
        "INSCOQA_TIMEOUT_S",
        "INSCOQA_RETRIES",
        "INSCOQA_CONCURRENCY",
        "INSCOQA_API_KEY",
        "INSCOQA_ENGINE",
        "INSCOQA_BASE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    return path


def test_flags_over_env_over_file(config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSCOQA_TIMEOUT_S", "22")
    monkeypatch.setenv("INSCOQA_RETRIES", "5")
    config = load_serving_config({"retries": 1, "model": None})
    assert config.model == "from-file"  # file (a None flag does not override)
    assert config.timeout_s == 22.0  # env over file
    assert config.retries == 1  # flag over env
    assert config.concurrency == 2  # file over default
    assert config.max_tokens == ServingConfig().max_tokens  # default
    sources = config_sources(ServingConfig, "serving", cli={"retries": 1})
    assert sources["model"].startswith("file ")
    assert sources["timeout_s"] == "env INSCOQA_TIMEOUT_S"
    assert sources["retries"] == "flag --retries"
    assert sources["max_tokens"] == "default"


def test_other_sections_use_their_own_env_prefix(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSCOQA_JUDGE_MODEL", "judge-model")
    judge = load_serving_config(section="judge")
    assert judge.base_url == "http://judge.example/v1" and judge.model == "judge-model"


def test_bad_values_name_their_source(config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSCOQA_CONCURRENCY", "many")
    with pytest.raises(ConfigError, match="INSCOQA_CONCURRENCY"):
        load_serving_config()
    monkeypatch.delenv("INSCOQA_CONCURRENCY")
    with pytest.raises(ConfigError, match="engine"):
        load_section(ServingConfig, "serving", cli={"engine": "tgi"})


def test_config_show_json_masks_the_key(
    config_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INSCOQA_API_KEY", "s3cret")
    assert main(["config", "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["values"]["api_key"] == "***"
    assert shown["values"]["model"] == "from-file"
    assert shown["sources"]["api_key"] == "env INSCOQA_API_KEY"
    assert shown["config_file"] == str(config_file)


def test_config_show_text(config_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert "timeout_s" in out and "11.0" in out and str(config_file) in out
