"""Run settings a user can state, and the software stacks that set their defaults.

A stack (catalogs/assumptions/stacks.yaml) is the defaults of one generation of training software
(Megatron-LM 2021, Megatron-Core 2024, NeMo 2024, DeepSpeed ZeRO-3, TorchTitan FSDP2, LLM Foundry). What
the user states wins over the stack; what neither states takes TrainConfig's default. `resolve` returns the
settings and which of them came from the stack, so the CLI can say what the stack set.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError, ValidationError
from gpuplanner.engine.perf.shapes import (
    ATTENTION,
    FP8_RECIPES,
    MOE_DISPATCHERS,
    OPTIMIZER_STATES,
    OPTIMIZERS,
    PRECISIONS,
    RECOMPUTE,
)

# field → allowed values (None: a boolean; int: an integer range)
SETTINGS: dict[str, Any] = {
    "precision": PRECISIONS,
    "attention": ATTENTION,
    "sequence_parallel": None,
    "recompute": RECOMPUTE,
    "zero_stage": (0, 1, 2, 3),
    "dp_overlap": None,
    "param_gather_overlap": None,
    "tp_overlap": None,
    "tp_comm_overlap": None,
    "pp_overlap": None,
    "grad_dtype": ("fp32", "bf16", "fp16"),
    "ep_overlap": None,
    "balanced_pipeline": None,
    "zero3_regather_on_recompute": None,
    "zero3_nics_per_node": (0, 1, 2, 4, 8),
    "optimizer": OPTIMIZERS,
    "optimizer_state": OPTIMIZER_STATES,
    "moe_dispatcher": MOE_DISPATCHERS,
    "expert_tp": None,
    "fp8_params": None,
    "recompute_norm_act": None,
    "mla_up_proj_recompute": None,
    "pipeline_layout": str,  # Megatron-Core pipeline_model_parallel_layout, checked against the model's layers
    "fp8_recipe": FP8_RECIPES,
}
# what a run gets when neither the user nor a stack says (TrainConfig's defaults: Megatron-Core-like)
DEFAULTS: dict[str, Any] = {
    "precision": "bf16",
    "attention": "flash",
    "sequence_parallel": None,
    "recompute": "selective",
    "zero_stage": 1,
    "dp_overlap": True,
    "param_gather_overlap": True,
    "tp_overlap": True,
    "tp_comm_overlap": False,
    "pp_overlap": True,
    "grad_dtype": None,
    "ep_overlap": False,
    "balanced_pipeline": False,
    "zero3_regather_on_recompute": False,
    "zero3_nics_per_node": 0,
    "optimizer": "fused",
    "optimizer_state": "fp32",
    "moe_dispatcher": "alltoall",
    "expert_tp": True,
    "fp8_params": False,
    "recompute_norm_act": False,
    "mla_up_proj_recompute": False,
    "pipeline_layout": "",
    "fp8_recipe": "delayed",
}


def stacks_path() -> Path:
    return bundled_catalog_dir() / "assumptions" / "stacks.yaml"


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, dict[str, Any]]:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_stacks", {"reason": str(exc)}), file=path) from exc
    stacks = doc.get("stacks")
    if not isinstance(stacks, dict) or not stacks:
        raise CatalogError(text.Msg("error.no_stacks_map"), file=path)
    for name, st in stacks.items():
        for req in ("name", "source", "as_of", "settings"):
            if not isinstance(st, dict) or req not in st:
                raise CatalogError(text.Msg("error.valinf_missing", {"fields": req}), file=path, entry=name)
        if st.get("estimate") and not st.get("note"):
            raise CatalogError(text.Msg("error.estimate_needs_note"), file=path, entry=name)
        for k, v in st["settings"].items():
            _check(k, v, f"stack {name}", path)
    return stacks


def load_stacks(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    return _load(str(path or stacks_path()))


def _check(key: str, value: Any, where: str, path: str | None = None) -> None:
    if key not in SETTINGS:
        raise ValidationError(
            text.Msg("error.unknown_setting", {"where": where, "key": key}),
            field=key,
            hint=text.Msg("error.use_one_of", {"options": ", ".join(SETTINGS)}),
        )
    allowed = SETTINGS[key]
    if allowed is str:  # free text (pipeline_layout), checked where it is used
        ok = isinstance(value, str)
    else:
        ok = isinstance(value, bool) if allowed is None else value in allowed
    if key == "sequence_parallel" and value is None:
        ok = True
    if not ok:
        err = CatalogError if path else ValidationError
        kw = {"file": path, "entry": where} if path else {}
        options = "text" if allowed is str else ", ".join(map(str, allowed)) if allowed else "true/false"
        raise err(
            text.Msg(
                "error.setting_not_allowed", {"where": where, "key": key, "value": value, "options": options}
            ),
            field=key,
            **kw,
        )


def resolve(stack: str | None, stated: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(settings, the ones the stack set). `stated`: the user's settings (None = not stated)."""
    from_stack: dict[str, Any] = {}
    if stack:
        stacks = load_stacks()
        if stack not in stacks:
            raise ValidationError(
                text.Msg("error.unknown_stack", {"value": stack}),
                field="stack",
                value=stack,
                hint=text.Msg("error.use_one_of", {"options": ", ".join(stacks)}),
            )
        from_stack = dict(stacks[stack]["settings"])
    out = dict(DEFAULTS)
    applied: dict[str, Any] = {}
    for k, v in from_stack.items():
        if stated.get(k) is None:
            out[k] = v
            applied[k] = v
    for k, v in stated.items():
        if v is not None:
            _check(k, v, "setting")
            out[k] = v
    return out, applied
