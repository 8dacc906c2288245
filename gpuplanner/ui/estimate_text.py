"""The training estimate in words for the panels and dialogs: the one-line summary, why a layout does not
fit in GPU memory, and — when there is no estimate — why (no workload, none active, an inference workload,
no GPUs yet, or the engine's reason), all through ``tr()`` so that the Chinese UI shows no English."""

from __future__ import annotations

from gpuplanner.engine.analysis import Results, active_workload
from gpuplanner.model import Project
from gpuplanner.ui import field_labels, fmt
from gpuplanner.ui.i18n import current_language, translate
from gpuplanner.ui.plurals import counts


def no_estimate_text(project: Project, res: Results) -> str:
    """Why ``res`` has no training estimate, and what to do."""
    workloads = list(project.tables["workloads"].values())
    if not workloads:
        return translate("estimate", "No training workload: Plan → Workload… adds one.")
    wl = active_workload(project)
    if wl is None:
        return translate(
            "estimate", "No workload is active: tick “active” on one in Plan → Workload… to see its estimate."
        )
    if wl.kind != "training":
        return translate(
            "estimate",
            "The active workload “{name}” is an inference workload: the training estimate does not apply.",
        ).format(name=wl.name)
    if project.gpu_count() <= 0:
        return translate(
            "estimate", "The workload “{name}” cannot be evaluated yet: the plan has no GPUs."
        ).format(name=wl.name)
    if res.workload_error:
        return translate("estimate", "The workload “{name}” cannot be evaluated: {why}").format(
            name=wl.name, why=field_labels.plain_line(res.workload_error)
        )
    return translate("estimate", "The workload “{name}” has not been evaluated yet.").format(name=wl.name)


def refusal_text(memory: dict[str, float]) -> str:
    """Why the layout does not fit in GPU memory, with the figures."""
    gb = {k: fmt.number(v, 1) for k, v in memory.items() if k.endswith("_gb")}
    return translate(
        "estimate",
        "Does not fit: needs {total} GB per GPU but only {usable} GB is usable (weights {weights} GB, "
        "gradients {grads} GB, optimizer {optimizer} GB, activations {activations} GB).",
    ).format(
        total=gb.get("total_gb", "–"),
        usable=gb.get("usable_gb", "–"),
        weights=gb.get("weights_gb", "–"),
        grads=gb.get("grads_gb", "–"),
        optimizer=gb.get("optimizer_gb", "–"),
        activations=gb.get("activations_gb", "–"),
    )


def summary_text(res: Results) -> str:
    """ "16,384 GPUs: step 1.99 s, MFU 25.0 %, 8,429,424 tokens/s, time to train 33.0 h. Bottleneck: …"."""
    e = res.workload.estimate
    text = translate(
        "estimate", "{gpus} step {step}, MFU {mfu}, {tps} tokens/s, time to train {ttt}. Bottleneck: {b}."
    ).format(
        gpus=counts().estimate_head(int(e.n_gpus)),
        step=fmt.duration(e.step_time_s),
        mfu=fmt.percent(e.mfu, 1),
        tps=fmt.number(e.tokens_per_s),
        ttt=fmt.duration(e.time_to_train_s),
        b=e.bottleneck_text(current_language()),
    )
    if not e.fits:
        text += "\n" + refusal_text(e.memory)
    return text


def band_text(res: Results) -> str:
    """The expected range of the estimate from the bundled published runs (engine/perf/bands.py), and why a
    fine-grained MoE's speed is only an upper bound when its expert GEMMs are launch-bound (perf/host.py)."""
    from gpuplanner.engine.perf.bands import ranges

    w = res.workload
    if w is None:
        return ""
    e = w.estimate
    r = ranges(e, w.shape, w.cluster)
    step, tps = r.get("step_time_s_range"), r.get("tokens_per_s_range")
    if not step or not tps:
        return ""
    runs = int((r.get("band") or {}).get("runs") or 0)
    out = translate(
        "estimate", "Expected range, from {runs} published runs: step {s0}–{s1}, {t0}–{t1} tokens/s."
    ).format(
        runs=fmt.number(runs),
        s0=fmt.duration(step[0]),
        s1=fmt.duration(step[1]),
        t0=fmt.number(tps[0]),
        t1=fmt.number(tps[1]),
    )
    paced = r.get("host_paced")
    if paced:
        out += "\n" + translate(
            "estimate",
            "Host-paced: each expert's GEMM takes about {us} µs, under the {limit} µs at which kernels are "
            "launch-bound, so this speed is an upper bound.",
        ).format(us=fmt.number(paced["expert_gemm_us"]), limit=fmt.number(paced["threshold_us"]))
    return out
