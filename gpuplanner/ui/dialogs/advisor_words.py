"""The words of the design advisor's window: the servers left out, lists in the language's punctuation, cooling
and fabric templates by their short names, a design's training or serving layout, and the labels of points that
share a spot on the front. Plain functions (no widget), so the window and its tests share them."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gpuplanner import text as gtext
from gpuplanner.advisor import AdviceResult
from gpuplanner.advisor.run import left_out_by_reason
from gpuplanner.engine.perf.sentences import serving_layout_msg
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.vocabulary import TEMPLATE_NAMES


def left_out_lines(res: AdviceResult, lang: str, name: Callable[[str], str] | None = None) -> list[str]:
    """One line per reason the advisor left GPU servers out of the goal (the servers the goal itself did not
    list are not worth a line), in the window's language; ``name`` gives a server's name (its id without)."""
    return [
        gtext.render(
            "advisor.left_out.line",
            lang,
            servers=list_text([name(s) if name else s for s in servers], lang),
            why=why,
        )
        for why, servers in left_out_by_reason(res, lang)
    ]


def list_text(items: list[str], lang: str) -> str:
    """Items joined as the language lists them ("a, b"; "甲、乙")."""
    return gtext.render("col.list_separator", lang).join(items)


def cooling_words(methods: list[str], lang: str) -> str:
    """A design's rack cooling methods in the words `analyze` prints them with ("air, rear-door"; "风冷、背板换热")."""
    return list_text(
        [gtext.render(f"word.cooling.{m}", lang) if gtext.has(f"word.cooling.{m}") else m for m in methods],
        lang,
    )


def template_name(template: str) -> str:
    """A fabric template's short name in the window's language (its id when it is not one of the goal's)."""
    name = TEMPLATE_NAMES.get(template)
    return translate("template_names", name) if name else template


def training_layout(lay: dict[str, Any], lang: str) -> str:
    """A training design's layout as `estimate` writes it (TP8 PP2 DP16, CP/EP/VPP when above 1, the
    micro-batch and the recompute in the language's word); "" without one."""
    if not lay:
        return ""
    parts = [f"TP{lay.get('tp', 1)} PP{lay.get('pp', 1)} DP{lay.get('dp', 1)}"]
    parts += [f"{k.upper()}{lay[k]}" for k in ("cp", "ep", "vpp") if int(lay.get(k) or 1) > 1]
    if lay.get("micro_batch"):
        parts.append(f"mb{lay['micro_batch']}")
    if lay.get("recompute"):  # "recompute selective" / 选择性重计算
        word = gtext.word("recompute", lay["recompute"], lang)
        if lang == "zh":
            parts.append(word)
        else:
            parts.append("no recompute" if lay["recompute"] == "none" else f"recompute {word}")
    return " ".join(parts)


def serving_layout(s: dict[str, Any], lang: str) -> str:
    """A serving design's layout in `estimate --inference`'s words ("" when the design has none: it does not
    fit): engine.perf.sentences.serving_layout_msg, as `analyze` says it."""
    msg = serving_layout_msg(s)
    return msg.render(lang) if msg is not None else ""


def point_labels(
    xs: list[float], ys: list[float], near: float = 0.02
) -> list[tuple[str, tuple[float, float]]]:
    """Each point's number (its row in the table, from 1), one label per cluster of points that sit within
    ``near`` of the axes' spans of each other: two designs that differ only by cooling cost nearly the same and
    serve the same, and their numbers printed apart overlapped ("12" for 1 and 2). A cluster reads "1, 2"."""
    pts = [(x, y) for x, y in zip(xs, ys, strict=True)]
    finite = [(x, y) for x, y in pts if math.isfinite(x) and math.isfinite(y)]
    if not finite:
        return []
    span_x = (max(x for x, _ in finite) - min(x for x, _ in finite)) or 1.0
    span_y = (max(y for _, y in finite) - min(y for _, y in finite)) or 1.0
    groups: list[list[int]] = []
    for i, (x, y) in enumerate(pts):
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        for g in groups:
            gx, gy = pts[g[0]]
            if abs(x - gx) <= near * span_x and abs(y - gy) <= near * span_y:
                g.append(i)
                break
        else:
            groups.append([i])
    return [(", ".join(str(i + 1) for i in g), pts[g[-1]]) for g in groups]
