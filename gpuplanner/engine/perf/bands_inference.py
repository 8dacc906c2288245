"""Error bands of a serving estimate, derived from the bundled published inference results
(validation_inference.py), the way bands.py derives those of training.

For each counted row, r = measured / predicted output tokens/s. Rows are grouped by what drives the error:
dense vs MoE (the MoE rows are all optimistic, the dense ones scatter around zero) and the scenario (offline:
no latency target; server: within TTFT/TPOT targets). A prediction takes the band of its group — the smallest
and largest r of the group's rows — and falls back to a coarser group (scenario dropped, then all rows) while
the group holds fewer than MIN_RUNS rows. MIN_RUNS = 19 is the smallest group for which the range [min, max] of n
rows contains a further row drawn from the same population with probability (n-1)/(n+1) >= 90%; it is fixed by
that argument, not by the data. The leave-one-out coverage over the bundled rows is reported beside it
(`coverage_by_min_runs` gives it for other sizes).

The bands are computed by `python -m gpuplanner.engine.perf.bands_inference` into
catalogs/validation/inference_error_bands.yaml; a test recomputes them and fails when the stored file is
stale. Coverage is measured leave-one-out: the band of each row's group *without that row* must contain its
measured value (reported as `loo_coverage`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.perf.band_groups import (
    BandFile,
    bands_doc,
    loo_inside,
    mean_or_none,
    members_of,
    pick_group,
)

if TYPE_CHECKING:
    from gpuplanner.engine.perf.validation_inference import InferenceChecked

MIN_RUNS = 19


def group_keys(moe: bool, scenario: str) -> list[str]:
    """From the finest group to all rows."""
    a = "moe" if moe else "dense"
    return [f"{a}/{scenario}", a, "all"]


def _rows(checked: Iterable[InferenceChecked]) -> tuple[np.ndarray, list[list[str]]]:
    rows = [c for c in checked if c.error is not None and not c.run.excluded]
    ratio = np.array([1.0 / (1.0 + (c.error or 0.0)) for c in rows])
    return ratio, [group_keys(c.moe, c.scenario) for c in rows]


def _loo(ratio: np.ndarray, keys: list[list[str]], min_runs: int) -> float:
    return mean_or_none(loo_inside(ratio, keys, members_of(keys), min_runs)) or 0.0


def coverage_by_min_runs(checked: Iterable[InferenceChecked], sizes: Iterable[int]) -> dict[int, float]:
    ratio, keys = _rows(checked)
    return {n: _loo(ratio, keys, n) for n in sizes}


def compute(checked: Iterable[InferenceChecked]) -> dict[str, Any]:
    """Bands per group, and their leave-one-out coverage, from validation_inference.check_all()."""
    ratio, keys = _rows(checked)
    return bands_doc("inference_error_bands", "perf.valinf_bands_note", MIN_RUNS, ratio, keys)


def _computed() -> dict[str, Any]:
    from gpuplanner.engine.perf.validation_inference import check_all

    return compute(check_all())


BANDS = BandFile("inference_error_bands.yaml", _computed)
bands_path, stored_bands, write = BANDS.path, BANDS.stored, BANDS.write


def band_for(moe: bool, scenario: str, path: str | Path | None = None) -> dict[str, Any]:
    """The band of a serving prediction: its finest group holding at least MIN_RUNS published rows."""
    doc = stored_bands(path)
    k = pick_group(doc, group_keys(moe, scenario), MIN_RUNS)
    g = doc["groups"][k]
    return {
        "measured_over_predicted": [g["low"], g["high"]],
        "group": k,
        "runs": g["runs"],
        "explanation": _explanation(g["low"], g["high"], g["runs"], k, doc["runs"]).render("en"),
    }


def _explanation(lo: float, hi: float, runs: int, group: str, total: int) -> text.Msg:
    return text.Msg(
        "perf.valinf_band_explanation", {"lo": lo, "hi": hi, "runs": runs, "group": group, "total": total}
    )


def explanation_msg(moe: bool, scenario: str) -> text.Msg:
    """What the band of :func:`serving_ranges` is (or why there is none), as a message for a reader in any
    language (the ranges hold it in English, as `estimate --inference --json` has always written it)."""
    try:
        doc = stored_bands()
        k = pick_group(doc, group_keys(moe, scenario), MIN_RUNS)
    except CatalogError as exc:
        return text.Msg("perf.valinf_no_bands", {"reason": text.error_msg(exc)})
    g = doc["groups"][k]
    return _explanation(g["low"], g["high"], g["runs"], k, doc["runs"])


def serving_ranges(
    output_tokens_per_s: float, requests_per_s: float, moe: bool, scenario: str
) -> dict[str, Any]:
    """The error ranges of one serving estimate; without a readable bands file the ranges are None and the
    band says why, rather than failing the estimate."""
    try:
        band = band_for(moe, scenario)
    except CatalogError as exc:
        return {
            "output_tokens_per_s_range": None,
            "max_requests_per_s_range": None,
            "band": {"explanation": text.en("perf.valinf_no_bands", reason=exc.one_line())},
        }
    lo, hi = band["measured_over_predicted"]
    return {
        "output_tokens_per_s_range": [output_tokens_per_s * lo, output_tokens_per_s * hi],
        "max_requests_per_s_range": [requests_per_s * lo, requests_per_s * hi],
        "band": band,
    }


if __name__ == "__main__":  # python -m gpuplanner.engine.perf.bands_inference
    d = write(sys.argv[1] if len(sys.argv) > 1 else None)
    print(
        text.en(
            "perf.valinf_bands_written",
            runs=d["runs"],
            coverage=d["loo_coverage"],
            groups=", ".join(d["groups"]),
        )
    )
