"""`gpuplanner advise --lang zh` prints the goal, the search, the pruning reasons, the servers left out and the
table in Chinese, naming servers and models as the report and the desktop do; English keeps the ids a user types
(--servers); --json is the same in both; a PROJECT's language is the default."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re

import pytest

from gpuplanner.advisor import Goal
from gpuplanner.advisor.space import Bounds, limit_broken
from gpuplanner.catalog.loader import default_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.cli import main
from gpuplanner.text import render
from gpuplanner.text.cli_advise import PRUNE_SLUGS

TRAIN = ["--model", "llama3-8b", "--tokens", "2e11", "--deadline-days", "30", "--servers",
         "nvidia-dgx-h100,nvidia-dgx-b200,amd-instinct-mi325x-platform", "--templates", "rail-leaf-spine",
         "--max-servers", "4", "--workers", "1"]  # fmt: skip
SERVE = ["--inference", "--model", "llama3-8b", "--requests-per-s", "5", "--users", "50", "--ttft", "1",
         "--tpot", "0.05", "--servers", "nvidia-dgx-h100", "--templates", "leaf-spine", "--max-servers", "2",
         "--workers", "1"]  # fmt: skip
# English words that would show a sentence left untranslated (ids and model names are not words)
ENGLISH = re.compile(r"\b(candidates|pruned|planned|analysed|within|limit|left out|servers|cooling|binding|"
                     r"deadline|requests|users|serve|train|tokens|days|fabric)\b")  # fmt: skip


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue()


@pytest.fixture(scope="module")
def runs() -> dict[tuple[str, str], str]:
    out = {}
    for name, args in (("train", TRAIN), ("serve", SERVE)):
        for lang in ("en", "zh"):
            rc, txt = cli("advise", *args, "--lang", lang)
            assert rc == 0, txt
            out[name, lang] = txt
        rc, js = cli("advise", *args, "--json")
        assert rc == 0
        out[name, "json"] = js
    return out


@pytest.mark.parametrize("name", ["train", "serve"])
def test_chinese_has_no_english_sentence_and_names_the_servers(runs, name):
    zh, en = runs[name, "zh"], runs[name, "en"]
    cat = default_catalog()
    data = json.loads(runs[name, "json"])
    assert data["designs"], "the space has designs"
    for d in data["designs"]:
        server = d["server"]
        assert server in en  # English keeps the id a user types
        assert local_name(cat.get(server), cat, "zh") in zh and server not in zh
    assert "Llama 3 8B" in zh and "llama3-8b" in en
    # words of the sentence, not the names: take out the server names and technical tokens first
    words = zh
    for d in data["designs"]:
        words = words.replace(local_name(cat.get(d["server"]), cat, "zh"), "")
    words = re.sub(r"rail-leaf-spine|leaf-spine|ProcessPoolExecutor|TTFT|TPOT|GPU|kW", "", words)
    assert not ENGLISH.findall(words), words
    assert render("adv.col.binding", "zh") in zh and render("adv.col.servers", "zh") in zh


def test_json_is_the_same_in_both_languages(runs):
    for name in ("train", "serve"):
        data = json.loads(runs[name, "json"])
        rc, js = cli("advise", *(TRAIN if name == "train" else SERVE), "--json", "--lang", "zh")
        assert rc == 0
        again = json.loads(js)
        for d in (data, again):
            d.pop("seconds")
        assert again == data


def test_the_pruning_reasons_and_left_out_lines_are_in_the_language(runs):
    zh = runs["train", "zh"]
    en = runs["train", "en"]
    assert "pruned by" in en and "因" in zh and "剪除" in zh
    # MI325X has no price: left out, with the reason in each language
    assert "left out amd-instinct-mi325x-platform: no price" in en
    assert "未纳入" in zh and "目录中没有该服务器或其 GPU 的价格" in zh


def test_every_reason_the_advisor_prunes_by_has_its_chinese_words():
    """An oracle over the advisor's own rule: every reason `limit_broken` can give (and the two the search adds)
    is one of the reasons the text knows, so no pruning line falls back to English in a Chinese run."""
    goal = Goal(model_id="llama3-8b", total_tokens=1e9, deadline_days=1.0, facility_kw_max=1.0, racks_max=1,
                capex_usd_max=1.0, tco_usd_max=1.0)  # fmt: skip
    open_goal = Goal(model_id="llama3-8b", total_tokens=1e9, deadline_days=1.0)
    cases = [
        (goal, Bounds(1, 1, 1, 10**9, 0, None)),  # one server over the rack limit
        (goal, Bounds(1, 1, 1, 2, 0, None)),  # racks
        (goal, Bounds(1, 1, 2, 1, 0, None)),  # facility kW
        (goal, Bounds(2, 1, 1, 1, 0, None)),  # capex
        (goal, Bounds(1, 2, 1, 1, 0, None)),  # TCO
        (open_goal, Bounds(1, 1, 1, 1, math.inf, None)),  # no layout fits
        (open_goal, Bounds(1, 1, 1, 1, 2.0, None)),  # deadline
    ]
    reasons = {limit_broken(g, b) for g, b in cases}
    assert None not in reasons and len(reasons) == len(cases)
    reasons |= {
        "request rate within the latency targets",
        "load within the latency targets",
        "dominated by a design already found",
    }  # fmt: skip  (advisor/run.py)
    assert reasons <= set(PRUNE_SLUGS), sorted(reasons - set(PRUNE_SLUGS))
    for slug in PRUNE_SLUGS.values():
        zh = render(f"adv.prune.{slug}", "zh")
        assert zh and not re.search(r"[A-Za-z]{4,}", zh.replace("GPU", "")), zh
