"""The advisor's front table and details line name things as the main window does (s10): servers and switches by
their names in the window's language, as the catalog tree and the report name them (s11; the ids in tooltips), cooling methods in `analyze`'s words and fabric templates by
their short names, in English and in Chinese; a serving design's details give its serving layout (replicas of TP,
or prefill and decode workers of TP) rather than a training layout, the rack budget "no limit" rather than
"0 kW", and each limit with its unit in the language's punctuation."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from gpuplanner.advisor import Goal
from gpuplanner.ui import i18n
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog, serving_layout, training_layout
from tests.ui.conftest import keep_goal

SERVING = Goal(
    kind="inference",
    model_id="llama3-70b",
    requests_per_s=20,
    users=1000,
    precision="fp8",
    servers=("nvidia-dgx-b200",),
    templates=("leaf-spine",),
    oversubs=(1.0,),
    facility_kw_max=600.0,
    max_servers=4,  # disaggregated, 1,000 users need 4 DGX B200
)


def _searched(window, qtbot, goal: Goal) -> AdvisorDialog:
    keep_goal(window, goal)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    with ThreadPoolExecutor(2) as ex:
        dlg.search(executor=ex)
        dlg.wait()
        qtbot.waitUntil(lambda: dlg.result is not None, timeout=120_000)
    assert dlg.result.front, dlg.summary.text()
    return dlg


def _cells(dlg: AdvisorDialog) -> list[list[str]]:
    return [
        [dlg.table.item(r, c).text() for c in range(dlg.table.columnCount())]
        for r in range(dlg.table.rowCount())
    ]


def _ids(dlg: AdvisorDialog) -> set[str]:
    """The catalog ids the front's designs name: none may show in a visible cell or the details line."""
    out = set()
    for d in dlg.result.front:
        out |= {d["server"], d["switch"]} | ({d["cooling_id"]} if d.get("cooling_id") else set())
    return out


WORDS = {
    "en": {
        "server": "NVIDIA DGX B200",
        "switch": "NVIDIA Quantum-2 QM9790",
        "fabric": "non-rail leaf-spine 1:1",
        "no_limit": "rack budget: no limit",
    },
    "zh": {
        "server": "GPU 服务器 DGX B200 (1,440 GB)（8 × B200 (HGX B200 SXM)）",
        "switch": "英伟达 Quantum-2 QM9790 NDR InfiniBand 交换机（非管理型）",  # its name_zh
        "fabric": "非轨道叶脊 1:1",
        "no_limit": "单柜预算不限",
    },
}
COOLING = {
    "en": {
        "air": "air",
        "air-contained": "air-contained",
        "rear-door": "rear-door",
        "cold-plate": "cold-plate",
    },
    "zh": {
        "air": "风冷",
        "air-contained": "封闭通道风冷",
        "rear-door": "背板换热",
        "cold-plate": "冷板式液冷",
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("mode", ["aggregated", "disaggregated"])
def test_the_front_and_details_name_things_as_the_window_does(window, qtbot, lang, mode):
    i18n.set_language(lang)
    try:
        assert i18n.current_language() == lang
        dlg = _searched(window, qtbot, SERVING.with_(serving_mode=mode))
        words, sep = WORDS[lang], ("、" if lang == "zh" else ", ")
        ids = _ids(dlg)
        # the TCO axis in the window's money words, as the table's cells (万美元 in Chinese, not "百万 USD")
        axis = dlg.plot.getAxis("bottom").labelText
        assert axis == ("总拥有成本（万美元）" if lang == "zh" else "TCO, USD (millions)"), axis
        for r, (row, d) in enumerate(zip(_cells(dlg), dlg.result.front, strict=True)):
            assert not [c for c in row if any(i in c for i in ids)], (
                row
            )  # no raw catalog id in a visible cell
            assert row[0] == f"{d['servers']} × {words['server']}"
            assert (
                dlg.table.item(r, 0).toolTip() == f"{row[0]}\n{d['servers']} × {d['server']}"
            )  # the id in the tooltip
            assert row[2] == words["fabric"] and "leaf-spine 1:1" in dlg.table.item(r, 2).toolTip()
            assert row[3] == sep.join(COOLING[lang][m] for m in d["cooling"])
            if lang == "zh":  # no English word left in the names and cooling
                assert not re.search(r"[a-z]{3,}", row[2] + row[3]), row
        for r, d in enumerate(dlg.result.front):
            dlg.table.selectRow(r)
            text = dlg.details.text()
            assert not any(i in text for i in ids), text
            assert words["switch"] in text and text.startswith(words["server"])
            if lang == "zh":  # the names in Chinese: no English describing word, "交换机" said once
                assert not re.search(r"\b(switch|server|rack|unmanaged)\b", text, re.I), text
                assert text.count("交换机") == 1, text
            assert (
                words["no_limit"] in text and "预算 0" not in text and "budget 0" not in text
            )  # the goal states no rack budget
            assert "—" not in text  # a serving design has its serving layout
            s = d["serving"]
            assert s["mode"] == mode
            if mode == "aggregated":
                assert s["replicas"] >= 1 and s["tp"] >= 1
                want = (
                    f"{s['replicas']} 个 TP{s['tp']} 副本"
                    if lang == "zh"
                    else f"{s['replicas']} replica{'s' if s['replicas'] != 1 else ''} of TP{s['tp']}"
                )
            else:
                assert s["prefill_workers"] >= 1 and s["decode_workers"] >= 1
                if lang == "zh":
                    want = f"{s['prefill_workers']} 个 TP{s['prefill_tp']} 预填充实例 + {s['decode_workers']} 个 TP{s['decode_tp']} 解码实例"
                else:
                    pw, dw = s["prefill_workers"], s["decode_workers"]
                    want = (
                        f"{pw} prefill worker{'s' if pw != 1 else ''} of TP{s['prefill_tp']} + "
                        f"{dw} decode worker{'s' if dw != 1 else ''} of TP{s['decode_tp']}"
                    )
                assert (
                    s["prefill_workers"] * s["prefill_tp"] + s["decode_workers"] * s["decode_tp"] <= d["gpus"]
                )
            assert want in text, text
            if lang == "zh":
                assert (
                    "推理部署（" in text
                    and "。约束：设施功率 " in text
                    and "（上限 600 kW）；请求速率 " in text
                ), text
                assert "（至少 20 请求/秒）；并发用户数 " in text and "（至少 1,000）" in text, text
                assert ";" not in text and ": " not in text, text  # the Chinese punctuation
            else:
                assert "serving (" in text and "Limits: facility power " in text, text
                assert "(at most 600 kW); request rate " in text and "(at least 20 requests/s)" in text, text
                assert "(at least 1,000)" in text, text
            assert "nvidia-dgx-b200" in dlg.details.toolTip()  # the ids stay at hand
    finally:
        i18n.set_language("en")


def test_the_serving_layout_in_estimates_words():
    agg = {"mode": "aggregated", "tp": 4, "pp": 2, "replicas": 3}
    assert serving_layout(agg, "en") == "3 replicas of TP4 PP2"
    assert serving_layout(dict(agg, replicas=1), "en") == "1 replica of TP4 PP2"
    lay = {"tp": 2, "pp": 5, "dp": 128, "cp": 1, "ep": 1, "vpp": 8, "micro_batch": 1, "recompute": "none"}
    assert training_layout(lay, "en") == "TP2 PP5 DP128 VPP8 mb1 no recompute"
    assert training_layout(lay, "zh") == "TP2 PP5 DP128 VPP8 mb1 不重计算"
    assert training_layout({}, "en") == ""
    assert serving_layout(dict(agg, pp=1), "zh") == "3 个 TP4 副本"
    dis = {
        "mode": "disaggregated",
        "prefill_tp": 2,
        "prefill_workers": 1,
        "decode_tp": 4,
        "decode_workers": 3,
    }
    assert serving_layout(dict(dis, kv_transfer_s=0.0021), "en") == (
        "1 prefill worker of TP2 + 3 decode workers of TP4, KV transfer 2.1 ms"
    )
    assert (
        serving_layout({"mode": "aggregated", "tp": 0, "replicas": 0}, "en") == ""
    )  # does not fit: no layout
    assert serving_layout(dict(dis, decode_workers=0), "en") == ""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_training_designs_details(window, qtbot, lang):
    """A training design: the rack budget in kW, its parallel layout, and the deadline, budgets and cooling
    limits with their units."""
    i18n.set_language(lang)
    try:
        dlg = AdvisorDialog(window)
        qtbot.addWidget(dlg)
        d = {
            "server": "nvidia-dgx-h100",
            "switch": "nvidia-quantum-2-qm9790",
            "gpus": 64,
            "rack_budget_kw": 45.0,
            "layout": {
                "tp": 8,
                "pp": 1,
                "dp": 8,
                "cp": 1,
                "ep": 2,
                "vpp": 1,
                "micro_batch": 1,
                "recompute": "selective",
            },
            "limits": [
                {"name": "deadline_days", "limit": 30.0, "plan": 12.34, "within": True, "at_least": False},
                {"name": "racks", "limit": 10, "plan": 4, "within": True, "at_least": False},
                {"name": "cooling", "limit": ["air", "rear-door"], "plan": ["air"], "within": True},
            ],
        }
        text = dlg.details_text(d)
        server = "GPU 服务器 DGX H100（8 × H100 SXM5 80GB）" if lang == "zh" else "NVIDIA DGX H100"
        assert "nvidia-" not in text and server in text, text
        if lang == "zh":
            assert "单柜预算 45 kW，并行布局 TP8 PP1 DP8 EP2 mb1 选择性重计算。约束：" in text, text
            assert (
                "期限 12.3 天（上限 30 天）；机柜数 4（上限 10）；制冷方式 风冷（允许：风冷、背板换热）"
                in text
            ), text
        else:
            assert "rack budget 45 kW, layout TP8 PP1 DP8 EP2 mb1 recompute selective. Limits: " in text, text
            assert "deadline 12.3 days (at most 30 days); rack count 4 (at most 10); " in text, text
            assert "cooling air (allowed: air, rear-door)" in text, text
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_servers_left_out_are_named_too(window, qtbot, lang):
    """fp4 leaves out the GPUs without FP4 tensor cores: the summary names them as the catalog does."""
    i18n.set_language(lang)
    try:
        goal = SERVING.with_(precision="fp4", users=0, servers=("nvidia-dgx-b200", "nvidia-dgx-h100"))
        dlg = _searched(window, qtbot, goal)
        text = dlg.summary.text()
        if lang == "zh":  # the server and its GPU in Chinese words ("其 GPU 加速卡 H100 … 没有 FP4")
            assert "GPU 服务器 DGX H100（8 × H100 SXM5 80GB）" in text and "NVIDIA" not in text, text
            assert "其 GPU 加速卡 H100 SXM5 80GB（80 GB HBM3）没有 FP4" in text, text
        else:
            assert "NVIDIA DGX H100" in text and "NVIDIA H100" in text, text
        assert "nvidia-dgx-h100" not in text, text
        assert "nvidia-dgx-h100" in dlg.summary.toolTip()
    finally:
        i18n.set_language("en")
