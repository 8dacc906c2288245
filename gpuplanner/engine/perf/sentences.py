"""Sentences of a training estimate — which part of the step dominates, why a layout does not fit — as
message ids and values; the words and sentences themselves are in the text package (``perf.*`` and
``word.step_part.*`` in ``gpuplanner.text``)."""

from __future__ import annotations

from typing import Any

from gpuplanner import text

_BY_PLACE = ("tp_comm_s", "dp_comm_s")  # parts named by where they run: over NVLink or across nodes


def step_part(key: str, tp_intra: bool, dp_intra: bool) -> str:
    """The word id suffix of a step-time part (``tp_comm_s.intra`` for TP over NVLink)."""
    if key not in _BY_PLACE:
        return key
    intra = tp_intra if key == "tp_comm_s" else dp_intra
    return f"{key}.{'intra' if intra else 'inter'}"


def bottleneck_msg(breakdown: dict[str, float], tp_intra: bool = True, dp_intra: bool = False) -> text.Msg:
    """The largest part of the step and its share; when compute leads, the largest overhead too."""
    total = sum(breakdown.values()) or 1.0
    ranked = sorted(breakdown, key=lambda k: breakdown[k], reverse=True)
    top = ranked[0]
    params: dict[str, object] = {
        "top": text.Msg("word.step_part." + step_part(top, tp_intra, dp_intra)),
        "share": breakdown[top] / total,
    }
    if top == "compute_s" and len(ranked) > 1 and breakdown[ranked[1]] > 0:
        nxt = ranked[1]
        params["next"] = text.Msg("word.step_part." + step_part(nxt, tp_intra, dp_intra))
        params["next_share"] = breakdown[nxt] / total
        return text.Msg("perf.bottleneck_next", params)
    return text.Msg("perf.bottleneck", params)


def bottleneck_sentence(
    breakdown: dict[str, float], tp_intra: bool = True, dp_intra: bool = False, lang: str = "en"
) -> str:
    return bottleneck_msg(breakdown, tp_intra, dp_intra).render(lang)


def refusal_msg(memory: dict[str, float]) -> text.Msg:
    """Why a training layout does not fit: the memory per GPU against what is usable, part by part."""
    return text.Msg("perf.training_refusal", memory)


def refusal_sentence(memory: dict[str, float]) -> str:
    return refusal_msg(memory).render("en")


def serving_layout_msg(s: dict[str, Any]) -> text.Msg | None:
    """A serving plan's layout (its JSON, ``ServingPlan.to_json``) in `estimate --inference`'s words: replicas of
    TP (× PP) when aggregated, prefill and decode workers of TP when disaggregated; None when the plan has none (it
    does not fit). `analyze` and the advisor window say it the same way."""
    if s.get("mode") == "disaggregated":
        if not s.get("prefill_workers") or not s.get("decode_workers"):
            return None
        return text.Msg(
            "perf.srv.workers",
            dict(
                prefill=s["prefill_workers"],
                prefill_tp=s["prefill_tp"],
                decode=s["decode_workers"],
                decode_tp=s["decode_tp"],
                kv_ms=(s.get("kv_transfer_s") or 0.0) * 1e3,
            ),
        )
    if not s.get("replicas") or not s.get("tp"):
        return None
    pp = s.get("pp") or 1
    return text.Msg(
        "perf.srv.replicas", dict(replicas=s["replicas"], tp=s["tp"], pp=f" PP{pp}" if pp > 1 else "")
    )
