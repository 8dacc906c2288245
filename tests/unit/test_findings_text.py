"""Finding sentences: counts printed with thousands separators, as every other count in the app and report."""

from __future__ import annotations

import gpuplanner.engine.checks.network  # noqa: F401  (registers the templates)
from gpuplanner.engine.checks.findings import Finding


def test_counts_in_findings_have_thousands_separators():
    f = Finding("warning", "storage-too-slow", (), {"have": 360.0, "gpus": 1024, "need": 512.0})
    assert "1,024 GPUs" in f.message("en") and "1,024 块 GPU" in f.message("zh")
    small = Finding("warning", "storage-missing", (), {"gpus": 256})
    assert "256 GPUs" in small.message("en")
    flag = Finding("info", "storage-missing", (), {"gpus": True})  # a bool is not a count
    assert "True" in flag.message("en")


def test_findings_say_one_rack_or_racks_never_rack_s():
    """A finding's count takes its noun and verb in the singular or the plural ("1 rack (R01) draws", "9 racks
    (e.g. R02-01) draw"), never "rack(s)" or "PDU(s)"."""
    from gpuplanner import text

    for msg_id, (en, _zh) in text.MESSAGES.items():
        if msg_id.startswith(("finding.", "fix.")):
            assert "(s)" not in en, msg_id
    circuits = {"rack": "R01", "kw_max": 33.6, "current_a": 51.0, "circuits": 2, "feed_a": 63.0}
    one = Finding("warning", "rack-needs-several-circuits", (), {**circuits, "count": 1, "pdus_per_side": 1})
    assert one.message("en").startswith("1 rack (R01) draws up to 33.6 kW")
    assert "the rack has 1 rack PDU per side" in one.message("en")
    many = Finding("warning", "rack-needs-several-circuits", (), {**circuits, "count": 9, "pdus_per_side": 2})
    assert many.message("en").startswith("9 racks (e.g. R01) draw up to 33.6 kW")
    assert "the racks have 2 rack PDUs per side" in many.message("en")
    assert many.message("zh").startswith("9 个机柜（如 R01）最大功耗 33.6 kW")
    budget = {"rack": "R01", "budget_kw": 42.0, "rated_kw": 40.0, "type": "48U rack"}
    assert (
        Finding("info", "rack-budget-above-rating", (), {**budget, "count": 1})
        .message("en")
        .startswith("1 rack (R01) has a power budget of 42")
    )
    assert (
        Finding("info", "rack-budget-above-rating", (), {**budget, "count": 3})
        .message("en")
        .startswith("3 racks (e.g. R01) have a power budget of 42")
    )
