"""Error bands of a training estimate, derived from the bundled published runs (validation.py).

For each run, r = measured / predicted throughput (a step time is inverted first). Runs are grouped by what
drives the error: GPU generation (Ampere and older vs Hopper and newer), dense vs MoE, and scale (up to 256
GPUs vs more). A prediction takes the band of its group — the smallest and largest r of the group's runs — and
falls back to a coarser group (scale dropped, then generation, then dense/MoE) while the group holds fewer than
MIN_RUNS runs. MIN_RUNS is the smallest group size for which the leave-one-out coverage over the bundled runs
reaches 90% (8-12 give 89%, 14 gives 92%); with n runs the range [min, max] contains a further run drawn from
the same population with probability (n-1)/(n+1).

The bands are computed by `python -m gpuplanner.engine.perf.bands` into catalogs/validation/error_bands.yaml
(running all runs takes ~2 s, too slow for every `estimate`); a test recomputes them and fails when the stored
file is stale. Coverage is measured leave-one-out: the band of each run's group *without that run* must contain
its measured value (reported as `loo_coverage`).

Host-paced runs (fine-grained MoE whose expert GEMMs are shorter than launch_sensitive_kernel_s, host.py;
decided from the prediction) are not in those groups: the GPU-time prediction is an upper bound for them, not
an estimate. They form their own group HOST_PACED_GROUP, whose band runs from the lowest measured/predicted
of the host-paced runs to the bound (1, or the highest run if one ever exceeded it), with its own leave-one-out
coverage (`host_paced` in the file). A host-paced prediction takes that band whatever its size.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.perf.band_groups import BandFile, bands_doc, mean_or_none, pick_group

if TYPE_CHECKING:  # validation imports the estimate modules; this module is imported by them
    from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape
    from gpuplanner.engine.perf.training import TrainEstimate
    from gpuplanner.engine.perf.validation import Checked

MIN_RUNS = 14
HOST_PACED_GROUP = "moe/host-paced"
SCALE_SPLIT_GPUS = 256
HOPPER_AND_LATER = (
    "h100",
    "h200",
    "h800",
    "h20",
    "gh200",
    "b200",
    "b100",
    "gb200",
    "gb300",
    "b300",
    "mi300",
    "mi325",
)


def generation(gpu_name: str) -> str:
    g = gpu_name.lower()
    return "hopper+" if any(k in g for k in HOPPER_AND_LATER) else "ampere-"


def scale(n_gpus: int) -> str:
    return f"<={SCALE_SPLIT_GPUS}" if n_gpus <= SCALE_SPLIT_GPUS else f">{SCALE_SPLIT_GPUS}"


def group_keys(moe: bool, gpu_name: str, n_gpus: int) -> list[str]:
    """From the finest group to all runs."""
    a, g, s = ("moe" if moe else "dense"), generation(gpu_name), scale(n_gpus)
    return [f"{a}/{g}/{s}", f"{a}/{g}", a, "all"]


@dataclass(frozen=True)
class Band:
    throughput_ratio: tuple[float, float]  # (low, high) of measured / predicted throughput
    group: str
    runs: int
    total_runs: int
    note: str = ""  # a message id of the text package (a caveat), or empty

    def as_dict(self) -> dict[str, Any]:
        return {
            "measured_over_predicted": list(self.throughput_ratio),
            "group": self.group,
            "runs": self.runs,
            "explanation": self.explanation(),
            "note": text.en(self.note) if self.note else None,
        }

    def explanation(self) -> str:
        return self.explanation_msg().render("en")

    def explanation_msg(self) -> text.Msg:
        """What the band is, as a message to show in the reader's language."""
        lo, hi = self.throughput_ratio
        return text.Msg(
            "perf.band_explanation_note" if self.note else "perf.band_explanation",
            {
                "lo": lo,
                "hi": hi,
                "runs": self.runs,
                "group": self.group,
                "total": self.total_runs,
                "note": text.Msg(self.note),
            },
        )


def _host_paced_band(ratio: np.ndarray) -> tuple[float, float]:
    """From the lowest measured/predicted to the bound (1: a host-paced run cannot beat its GPU time)."""
    return float(ratio.min()), max(1.0, float(ratio.max()))


def host_paced(checked: Iterable[Checked]) -> dict[str, Any] | None:
    """The band of the host-paced runs and its leave-one-out coverage; None without any."""
    rows = [c for c in checked if c.error is not None and c.host_paced and not c.run.excluded]
    if not rows:
        return None
    ratio = np.array([1.0 / (1.0 + (c.error or 0.0)) for c in rows])
    lo, hi = _host_paced_band(ratio)
    inside = []
    for i in range(len(rows)):
        others = np.delete(ratio, i)
        if others.size:
            o_lo, o_hi = _host_paced_band(others)
            inside.append(bool(o_lo <= ratio[i] <= o_hi))
    return {
        "group": HOST_PACED_GROUP,
        "runs": len(rows),
        "low": lo,
        "high": hi,
        "loo_coverage": mean_or_none(inside),
        "run_ids": [c.run.id for c in rows],
    }


def compute(checked: Iterable[Checked]) -> dict[str, Any]:
    """Bands per group, and their leave-one-out coverage, from validation.check_all()."""
    checked = list(checked)
    rows = [c for c in checked if c.error is not None and c.counted]
    ratio = np.array([1.0 / (1.0 + (c.error or 0.0)) for c in rows])  # rows all have an error
    keys = [group_keys(c.moe, c.gpu, c.n_gpus) for c in rows]
    doc = bands_doc("error_bands", "perf.bands_file_note", MIN_RUNS, ratio, keys)
    doc["host_paced"] = host_paced(checked)
    return doc


def _computed() -> dict[str, Any]:
    from gpuplanner.engine.perf.validation import check_all

    return compute(check_all())


BANDS = BandFile("error_bands.yaml", _computed)
bands_path, stored_bands, write = BANDS.path, BANDS.stored, BANDS.write


def band_for(
    shape: ModelShape, cluster: ClusterSpec, n_gpus: int, precision: str = "bf16", host_paced: bool = False
) -> Band:
    """The band of a prediction: its finest group holding at least MIN_RUNS published runs; a host-paced
    prediction (host.py) takes the band of the host-paced runs."""
    doc = stored_bands()
    hp = doc.get("host_paced")
    if host_paced and hp:
        return Band((hp["low"], hp["high"]), HOST_PACED_GROUP, hp["runs"], doc["runs"] + hp["runs"])
    k = pick_group(doc, group_keys(shape.is_moe, cluster.gpu_name, int(n_gpus)), MIN_RUNS)
    g = doc["groups"][k]
    note = ""
    if shape.is_moe and not k.startswith("moe"):
        note = "perf.band_moe_from_dense"  # a message id, rendered by explanation()
    return Band((g["low"], g["high"]), k, g["runs"], doc["runs"], note)


if __name__ == "__main__":  # python -m gpuplanner.engine.perf.bands
    d = write(sys.argv[1] if len(sys.argv) > 1 else None)
    print(
        text.en(
            "perf.bands_written", runs=d["runs"], coverage=d["loo_coverage"], groups=", ".join(d["groups"])
        )
    )


def ranges(est: TrainEstimate, shape: ModelShape, cluster: ClusterSpec) -> dict[str, Any]:
    """The error ranges of one estimate: step time, tokens/s, MFU and time to train (with interruptions).

    Without a readable bands file (a catalog folder without validation/) the ranges are None and the band
    says why, rather than failing the estimate."""
    paced = bool(est.extra.get("short_expert_kernels"))
    try:
        band = band_for(shape, cluster, est.n_gpus, host_paced=paced)
    except CatalogError as exc:
        return {
            "step_time_s_range": None,
            "tokens_per_s_range": None,
            "mfu_range": None,
            "time_to_train_days_range": None,
            "band": {"explanation": text.en("perf.no_bands", reason=exc.one_line())},
            "host_paced": None,
        }
    lo, hi = band.throughput_ratio
    out: dict[str, Any] = {
        "step_time_s_range": [est.step_time_s / hi, est.step_time_s / lo],
        "tokens_per_s_range": [est.tokens_per_s * lo, est.tokens_per_s * hi],
        "mfu_range": [est.mfu * lo, est.mfu * hi],
        "time_to_train_days_range": None,
        "band": band.as_dict(),
        "host_paced": _host_paced_note(est, band) if paced else None,
    }
    if est.time_to_train_s:
        days = est.extra.get("time_to_train_with_failures_s", est.time_to_train_s) / 86400.0
        out["time_to_train_days_range"] = [days / hi, days / lo]
    return out


def _host_paced_msg(est: TrainEstimate, band: Band) -> text.Msg:
    """Why a prediction is host-paced (host.py), with the numbers."""
    from gpuplanner.engine.perf.assumptions import load_assumptions
    from gpuplanner.engine.perf.host import threshold_s

    us = float(est.extra.get("expert_gemm_us", 0.0))
    limit_us = threshold_s(load_assumptions()) * 1e6
    return text.Msg("perf.short_expert_kernels", {"us": us, "limit_us": limit_us, "runs": band.runs})


def _host_paced_note(est: TrainEstimate, band: Band) -> dict[str, Any]:
    """Why a prediction is host-paced (host.py), with the numbers, for `estimate --json` and the report."""
    msg = _host_paced_msg(est, band)
    return {
        "expert_gemm_us": msg.params["us"],
        "threshold_us": msg.params["limit_us"],
        "group": band.group,
        "runs": band.runs,
        "explanation": msg.render("en"),
    }


def explanations(est: TrainEstimate, shape: ModelShape, cluster: ClusterSpec) -> dict[str, text.Msg | None]:
    """The sentences of :func:`ranges` as messages, for a reader in any language (``ranges`` holds them in
    English, as `estimate --json` has always written them): ``band``, what the error band is (or why there
    is none), and ``host_paced``, why the prediction is an upper bound (None when it is not host-paced)."""
    paced = bool(est.extra.get("short_expert_kernels"))
    try:
        band = band_for(shape, cluster, est.n_gpus, host_paced=paced)
    except CatalogError as exc:
        return {"band": text.Msg("perf.no_bands", {"reason": text.error_msg(exc)}), "host_paced": None}
    return {"band": band.explanation_msg(), "host_paced": _host_paced_msg(est, band) if paced else None}
