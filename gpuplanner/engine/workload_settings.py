"""A workload row's run settings: what a training or serving workload of the project states (text fields,
"" = not stated), checked and turned into the engine's settings and TrainConfig, with errors that name the
workload, the field and the value. Split from engine/workload.py, which places the workload on the drawn
fabric and routes its flows."""

from __future__ import annotations

from typing import Any

from gpuplanner import text
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.perf.shapes import TrainConfig
from gpuplanner.model.rows import Workload

ROW_DEFAULTS = {"precision": "bf16", "zero_stage": 1, "recompute": "selective"}
ON_OFF = (
    "sequence_parallel",
    "tp_comm_overlap",
    "pp_overlap",
    "dp_overlap",
    "param_gather_overlap",
    "ep_overlap",
    "tp_overlap",
    "balanced_pipeline",
    "zero3_regather_on_recompute",
    "expert_tp",
    "fp8_params",
    "recompute_norm_act",
    "mla_up_proj_recompute",
)
# text fields whose value is one of the setting's allowed values (settings.SETTINGS)
CHOICE_SETTINGS = (
    "attention",
    "grad_dtype",
    "optimizer",
    "optimizer_state",
    "moe_dispatcher",
    "fp8_recipe",
    "zero3_nics_per_node",
)
TEXT_SETTINGS = ("pipeline_layout",)  # free text, checked against the model where it is used


def _bad_setting(workload: Workload, name: str, value: str, options: str) -> PlannerError:
    return PlannerError(
        text.Msg(
            "error.workload_setting",
            {"workload": workload.name, "field": name, "value": value, "options": options},
        ),
        field=name,
        value=value,
    )


def workload_settings(workload: Workload) -> dict[str, Any]:
    """The run settings the workload row states (None = not stated), for settings.resolve. A value the
    setting does not take is refused naming the workload, the field and the value."""
    from gpuplanner.engine.perf.settings import SETTINGS, load_stacks

    stated: dict[str, Any] = {}
    stack = getattr(workload, "stack", "") or ""
    if stack and stack not in (stacks := load_stacks()):
        raise _bad_setting(workload, "stack", stack, ", ".join(stacks))
    if (
        workload.precision == "fp4"
    ):  # NVFP4 / MXFP4 is modelled for serving (engine/perf/serving_worker.py) only
        raise PlannerError(
            text.Msg("error.workload_fp4_training", {"workload": workload.name, "kind": workload.kind}),
            field="precision",
            value="fp4",
        )
    for k, default in ROW_DEFAULTS.items():
        v = getattr(workload, k)
        stated[k] = None if (stack and v == default) else v
    for k in ON_OFF:
        v = str(getattr(workload, k, "") or "").strip().lower()
        if v not in ("", "on", "off"):
            raise PlannerError(
                text.Msg("error.on_off", {"workload": workload.name, "field": k, "value": v}),
                field=k,
                value=v,
            )
        stated[k] = None if not v else v == "on"
    for k in CHOICE_SETTINGS:
        raw = getattr(workload, k, "")
        v = str(raw if raw is not None else "").strip()
        allowed = SETTINGS[k]
        if not v:
            stated[k] = None
            continue
        by_text = {str(a): a for a in allowed}  # zero3_nics_per_node: "4" → 4
        if v not in by_text:
            raise _bad_setting(workload, k, v, ", ".join(by_text))
        stated[k] = by_text[v]
    for k in TEXT_SETTINGS:
        v = str(getattr(workload, k, "") or "").strip()
        stated[k] = v or None
    return stated


# serving run settings of an inference workload ("" = not stated: vllm; every prompt is prompt_len)
SERVING_SETTINGS = ("serving_stack", "prompt_dataset")


def _serving_choice_error(
    workload: Workload, field: str, value: str, options: Any, empty: str
) -> PlannerError:
    """A serving setting of a workload that is not one of its choices: workload, field and value named."""
    return PlannerError(
        text.Msg(
            "error.workload_serving_setting",
            {
                "workload": workload.name,
                "field": field,
                "value": value,
                "options": ", ".join(options),
                "empty": text.Msg(empty),
            },
        ),
        field=field,
        value=value,
    )


def workload_serving_settings(workload: Workload) -> dict[str, Any]:
    """The serving settings the workload row states, as ServingSetup fields (`serving_stack`, `prompt_dist`).
    A value the engine does not take is refused naming the workload, the field and the value; a prompt dataset
    whose mean is not the workload's prompt length names both fields."""
    from gpuplanner.engine.perf.serving_prompts import check_mean, dataset_names, prompt_lengths
    from gpuplanner.engine.perf.serving_setup import SERVING_STACKS

    stack = str(getattr(workload, "serving_stack", "") or "").strip()
    if stack and stack not in SERVING_STACKS:
        raise _serving_choice_error(
            workload, "serving_stack", stack, SERVING_STACKS, "error.workload_serving_stack.empty"
        )
    name = str(getattr(workload, "prompt_dataset", "") or "").strip()
    dist = None
    if name:
        known = dataset_names()
        if name not in known:
            raise _serving_choice_error(
                workload, "prompt_dataset", name, known, "error.workload_prompt_dataset.empty"
            )
        dist = prompt_lengths(name)
        try:
            check_mean(dist, workload.prompt_len)
        except PlannerError as exc:  # the engine names --prompt; a workload names its two fields
            raise PlannerError(
                text.Msg(
                    "error.workload_prompt_not_mean",
                    {
                        "workload": workload.name,
                        "value": name,
                        "prompt": workload.prompt_len,
                        "mean": dist.mean,
                        "give": round(dist.mean),
                    },
                ),
                field="prompt_dataset",
                value=name,
            ) from exc
    return {"serving_stack": stack or "vllm", "prompt_dist": dist}


def train_config(workload: Workload, n_gpus: int, settings: dict[str, Any] | None = None) -> TrainConfig:
    """The workload's training configuration; `settings`: run settings resolved already (the CLI's)."""
    from gpuplanner.engine.perf.settings import resolve

    if settings is None:
        settings, _ = resolve(getattr(workload, "stack", "") or None, workload_settings(workload))
    model_par = workload.tp * workload.pp * workload.cp
    dp = workload.dp or max(1, n_gpus // model_par)
    return TrainConfig(
        tp=workload.tp,
        pp=workload.pp,
        dp=dp,
        cp=workload.cp,
        ep=workload.ep,
        vpp=workload.vpp,
        micro_batch=workload.micro_batch,
        global_batch=workload.global_batch,
        seq_len=workload.seq_len,
        total_tokens=workload.total_tokens,
        **settings,
    )
