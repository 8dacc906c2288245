"""`gpuplanner generate --list` shows the presets; `gpuplanner generate PRESET -o FILE` writes the same project
the welcome screen builds (a real file, read back by `info`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_cli import run


def test_list_shows_templates_and_presets():
    r = run("generate", "--list", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert "rail-leaf-spine" in data["templates"]
    assert data["presets"]["roce-4-node"]["gpus"] == 32
    assert data["presets"]["fat-tree-1024-node"]["gpus"] == 8192
    text = run("generate", "--list").stdout
    assert "preset" in text and "ib-su-32-node" in text and "8,192" in text


def test_generate_a_preset_in_chinese(tmp_path: Path):
    out = tmp_path / "su.gpuplan"
    r = run("generate", "ib-su-32-node", "--lang", "zh", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["template"] == "ib-su-32-node" and summary["gpus"] == 256
    info = run("info", str(out), "--json")
    assert info.returncode == 0, info.stderr
    assert "32 节点 InfiniBand 可扩展单元" in info.stdout
