"""The customer's goal and the site's limits, as data: what to train (or serve), by when, and within which
power, rack density, rack count, budget, vendor and export rules. Read from a YAML/JSON goal file or built
from command-line options; every bad key or value is refused with its name."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gpuplanner.core.errors import ValidationError
from gpuplanner.model.goal import parse_list
from gpuplanner.model.rows import DesignGoal
from gpuplanner.model.validate import validate_row
from gpuplanner.text import Msg

KINDS = ("training", "inference")
SERVING_MODES = ("aggregated", "disaggregated", "best")
SERVING_STACKS = ("vllm", "trtllm")  # engine/perf/serving_worker.py SERVING_STACKS (a test keeps them equal)
OBJECTIVES = ("tco", "capex")
DEFAULT_TEMPLATES = ("rail-leaf-spine", "fat-tree-3tier")


@dataclass(frozen=True)
class Goal:
    """A goal and its limits. Money is in USD (the engine's unit; the project currency converts at the edges).

    ``None`` means "no limit". Tuples that are empty mean "any"."""

    kind: str = "training"
    model_id: str = "llama3-70b"
    # training: the tokens to train on, the deadline and the run's batch
    total_tokens: float = 15e12
    deadline_days: float = 60.0
    global_batch: int = 1024  # sequences per step
    precision: str = "bf16"
    # inference: the request rate to serve and the latency targets
    requests_per_s: float = 0.0
    prompt_len: int = 2048
    output_len: int = 256
    ttft_s_max: float = 1.0
    tpot_s_max: float = 0.05
    # the site's limits and the budget
    facility_kw_max: float | None = None
    rack_kw_max: float | None = None
    racks_max: int | None = None
    capex_usd_max: float | None = None
    tco_usd_max: float | None = None
    region: str = ""  # ISO 3166 code of the customer: parts restricted there are left out
    # what may be bought
    servers: tuple[str, ...] = ()  # catalog server ids ("" = every GPU server in the catalog)
    vendors: tuple[str, ...] = ()  # GPU vendors, e.g. ("Huawei",)
    cooling: tuple[str, ...] = ()  # allowed cooling methods (air, rear-door, cold-plate, immersion)
    templates: tuple[str, ...] = DEFAULT_TEMPLATES
    oversubs: tuple[float, ...] = (1.0, 2.0)
    objective: str = "tco"  # the cost axis of the front: tco or capex
    max_servers: int = 4096  # the search's own ceiling, whatever the power allows
    # inference: how the GPUs serve, as estimate --inference --serving: aggregated (every replica prefills and
    # decodes), disaggregated (prefill and decode workers apart) or best (the larger capacity of the two)
    serving_mode: str = "aggregated"
    # inference, as estimate --inference states it: the serving stack whose KV-cache sizing applies
    # (--serving-stack), the percentiles of requests the TTFT and TPOT targets hold at (0 = in the mean;
    # --ttft-percentile / --tpot-percentile), the dataset prompt lengths vary as (its mean = prompt_len;
    # --prompt-dataset), and concurrent users to serve with their think time (--users / --think-time; 0 =
    # the request rate alone)
    serving_stack: str = "vllm"
    ttft_percentile: float = 0.0
    tpot_percentile: float = 0.0
    prompt_dataset: str = ""
    users: float = 0.0
    think_time_s: float = 0.0
    # inference: the serving stack's KV-cache share as the deployment sets it (--kv-fraction: vLLM
    # --gpu-memory-utilization, TensorRT-LLM free_gpu_memory_fraction), in (0, 1]; 0 = the stack's default
    kv_fraction: float = 0.0
    # inference: the most sequences one replica runs at once as the deployment caps it (--max-seqs: vLLM
    # --max-num-seqs, TensorRT-LLM max_batch_size); 0 = the stack's default
    max_seqs: int = 0
    # inference: the most tokens one engine step carries, decode plus prefill, as the deployment sets it
    # (--max-batched-tokens: TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens); 0 = the engine's default
    max_batched_tokens: int = 0
    # inference: whether prompts are chunked into the decode steps (False: --no-chunked-prefill, vLLM V0 with
    # enable_chunked_prefill False) and whether each tensor-parallel all-reduce runs fused into the GEMM before it
    # (--gemm-allreduce-fusion, TensorRT-LLM gemm_allreduce_plugin); the defaults are the engine's
    chunked_prefill: bool = True
    gemm_allreduce_fusion: bool = False

    def __post_init__(self) -> None:
        check(self)
        # the project's goal table holds every goal: its ranges, vocabularies and lists apply here too
        validate_row("goal", goal_row(self))

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def with_(self, **kw: Any) -> Goal:
        return dataclasses.replace(self, **kw)


def check(g: Goal) -> None:
    def bad(name: str, value: Any, why: str) -> ValidationError:
        return ValidationError(f"goal field '{name}' = {value!r}: {why}", field=name, value=value)

    if g.kind not in KINDS:
        raise bad("kind", g.kind, f"one of {', '.join(KINDS)}")
    if g.objective not in OBJECTIVES:
        raise bad("objective", g.objective, f"one of {', '.join(OBJECTIVES)}")
    if g.serving_mode not in SERVING_MODES:
        raise bad("serving_mode", g.serving_mode, f"one of {', '.join(SERVING_MODES)}")
    if g.serving_stack not in SERVING_STACKS:
        raise bad("serving_stack", g.serving_stack, f"one of {', '.join(SERVING_STACKS)}")
    for name in ("ttft_percentile", "tpot_percentile", "users", "think_time_s", "kv_fraction"):
        v = getattr(g, name)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
            raise bad(name, v, "a finite number ≥ 0 (0 = not stated)")
    if g.kv_fraction > 1:
        raise bad(
            "kv_fraction",
            g.kv_fraction,
            "a share above 0 and at most 1 (vLLM --gpu-memory-utilization, TensorRT-LLM "
            "free_gpu_memory_fraction), or 0 for the serving stack's default",
        )
    if isinstance(g.max_seqs, bool) or not isinstance(g.max_seqs, int) or g.max_seqs < 0:
        raise bad(
            "max_seqs",
            g.max_seqs,
            "a whole number of sequences ≥ 1 (vLLM --max-num-seqs, TensorRT-LLM max_batch_size), or 0 for the "
            "serving stack's default",
        )
    mbt = g.max_batched_tokens
    if isinstance(mbt, bool) or not isinstance(mbt, int) or mbt < 0:
        raise bad(
            "max_batched_tokens",
            mbt,
            "a whole number of tokens per engine step ≥ 1 (TensorRT-LLM max_num_tokens, vLLM "
            "--max-num-batched-tokens), or 0 for the engine's default",
        )
    for name in ("chunked_prefill", "gemm_allreduce_fusion"):  # yes or no, as ServingSetup takes them
        v = getattr(g, name)
        if not isinstance(v, bool):
            raise ValidationError(Msg(f"error.{name}", {"value": v}), field=name, value=v)
    for name in ("ttft_percentile", "tpot_percentile"):
        if not getattr(g, name) < 100:
            raise bad(
                name, getattr(g, name), "a percentile below 100 (e.g. 99), or 0 for the target in the mean"
            )
    if not isinstance(g.prompt_dataset, str):
        raise bad(
            "prompt_dataset", g.prompt_dataset, "a dataset name, or empty for every prompt prompt_len long"
        )
    if g.prompt_dataset:
        check_prompt_dataset(g.prompt_dataset, g.prompt_len if g.kind == "inference" else None)
    positive = {
        "total_tokens": g.total_tokens,
        "deadline_days": g.deadline_days,
        "global_batch": g.global_batch,
        "prompt_len": g.prompt_len,
        "output_len": g.output_len,
        "ttft_s_max": g.ttft_s_max,
        "tpot_s_max": g.tpot_s_max,
        "max_servers": g.max_servers,
    }
    for name, v in positive.items():
        if not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
            raise bad(name, v, "a finite number above 0")
    if g.kind == "inference" and not (
        (math.isfinite(g.requests_per_s) and g.requests_per_s > 0) or (math.isfinite(g.users) and g.users > 0)
    ):
        raise bad(
            "requests_per_s", g.requests_per_s, "an inference goal needs a request rate (or users) above 0"
        )
    for name in ("facility_kw_max", "rack_kw_max", "capex_usd_max", "tco_usd_max"):
        v = getattr(g, name)
        if v is not None and (not isinstance(v, int | float) or not math.isfinite(v) or v <= 0):
            raise bad(name, v, "a finite number above 0, or empty for no limit")
    if g.racks_max is not None and (not isinstance(g.racks_max, int) or g.racks_max < 1):
        raise bad("racks_max", g.racks_max, "a whole number ≥ 1, or empty for no limit")
    if not g.templates:
        raise bad("templates", g.templates, "at least one fabric template")
    for o in g.oversubs:
        if not (isinstance(o, int | float) and 1 <= o <= 8):
            raise bad("oversubs", g.oversubs, "each between 1 (non-blocking) and 8")


def check_prompt_dataset(name: str, prompt_len: int | None) -> None:
    """The goal's prompt dataset is one of catalogs/validation/inference_datasets.yaml and (for a serving goal)
    its mean is the goal's prompt length, as estimate --prompt-dataset wants --prompt; refused naming the field,
    the value and what to give."""
    from gpuplanner.engine.perf.serving_prompts import check_mean, dataset_names, prompt_lengths

    known = dataset_names()
    if name not in known:
        raise ValidationError(
            f"goal field 'prompt_dataset' = {name!r}: not a dataset of catalogs/validation/inference_datasets.yaml",
            field="prompt_dataset",
            value=name,
            hint=f"one of {', '.join(known)}, or empty for every prompt prompt_len tokens long",
        )
    if prompt_len is None:
        return
    dist = prompt_lengths(name)
    try:
        check_mean(dist, prompt_len)  # the engine names --prompt; the goal names its two fields
    except ValidationError:
        mean = dist.mean
        raise ValidationError(
            f"goal field 'prompt_dataset' = {name!r}: its mean prompt is {mean:.1f} tokens, the goal's prompt_len "
            f"is {prompt_len}",
            field="prompt_dataset",
            value=name,
            hint=f"set prompt_len to {round(mean)}: the serving model takes the dataset's mean prompt as prompt_len",
        ) from None


_TUPLES = {f.name for f in dataclasses.fields(Goal) if str(f.type).startswith("tuple")}
_INTS = {"global_batch", "prompt_len", "output_len", "racks_max", "max_servers"}
_FLOATS = {f.name for f in dataclasses.fields(Goal) if str(f.type).startswith("float")}


def goal_from_dict(data: Any, origin: str = "goal") -> Goal:
    if not isinstance(data, dict):
        raise ValidationError(f"{origin}: a goal is a mapping of fields, not {type(data).__name__}")
    known = {f.name for f in dataclasses.fields(Goal)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValidationError(
            f"{origin}: unknown goal field '{unknown[0]}'",
            field=unknown[0],
            hint=f"fields: {', '.join(sorted(known))}",
        )
    kw: dict[str, Any] = {}
    for k, v in data.items():
        if k in _TUPLES:
            if isinstance(v, str):
                v = [s.strip() for s in v.split(",") if s.strip()]
            if not isinstance(v, list | tuple):
                raise ValidationError(f"{origin}: goal field '{k}' is a list", field=k, value=v)
            v = tuple(float(x) if k == "oversubs" else str(x) for x in v)
        elif k in _FLOATS and isinstance(v, str):
            # YAML 1.1 reads "15e12" (no dot, no sign) as text: a number written so is still a number
            try:
                v = float(v.replace("_", ""))
            except ValueError:
                raise ValidationError(
                    f"{origin}: goal field '{k}' is a number, not {v!r}", field=k, value=v
                ) from None
        elif k == "region" and isinstance(v, str):
            v = v.strip().upper()
        elif k in _INTS and v is not None:
            if (
                isinstance(v, bool)
                or not isinstance(v, int | float)
                or (isinstance(v, float) and not v.is_integer())
            ):
                raise ValidationError(f"{origin}: goal field '{k}' is a whole number", field=k, value=v)
            v = int(v)
        kw[k] = v
    try:
        return Goal(**kw)
    except TypeError as exc:  # a wrong type the checks did not name
        raise ValidationError(f"{origin}: {exc}") from exc


def read_goal(path: str | Path) -> Goal:
    p = Path(path)
    if not p.is_file():
        raise ValidationError(Msg("error.goal.no_file", {"path": str(p)}), field="goal", value=str(p))
    if p.stat().st_size > 1_000_000:
        raise ValidationError(f"{p}: a goal file is at most 1 MB", field="goal")
    try:
        text = p.read_text(encoding="utf-8")
        data = json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValidationError(f"{p}: cannot read the goal ({first})", field="goal") from exc
    return goal_from_dict(data, str(p))


# -- the project's goal table (model/rows.py DesignGoal): 0 = no limit, lists as comma-separated text -----
_LIMITS = ("facility_kw_max", "rack_kw_max", "racks_max", "capex_usd_max", "tco_usd_max")
_ROW_FLOATS = {f.name for f in dataclasses.fields(DesignGoal) if f.type in ("float", float)}


def goal_row(goal: Goal) -> DesignGoal:
    """The goal as the project's goal row."""
    d: dict[str, Any] = {}
    for f in dataclasses.fields(DesignGoal):
        if f.name == "id":
            continue
        v = getattr(goal, f.name)
        if f.name in _LIMITS and v is None:
            v = 0
        if f.name in _TUPLES:
            v = ",".join(f"{x:g}" if isinstance(x, float) else str(x) for x in v)
        elif f.name in _ROW_FLOATS and isinstance(v, int | float) and not isinstance(v, bool):
            v = float(v)
        d[f.name] = v
    return DesignGoal(**d)


def goal_from_row(row: DesignGoal, origin: str = "the project's goal") -> Goal:
    """The project's goal row as the advisor's goal; raises ValidationError when none is set."""
    if not row.kind:
        raise ValidationError(
            f"{origin}: no goal is set",
            field="goal",
            hint="set one: gpuplanner set FILE goal=GOAL.yaml (or goal.FIELD=VALUE), or Plan ▸ Goal… in the window",
        )
    data: dict[str, Any] = {}
    for f in dataclasses.fields(DesignGoal):
        if f.name == "id":
            continue
        v = getattr(row, f.name)
        if f.name in _LIMITS and not v:
            v = None
        elif f.name in _TUPLES:
            v = parse_list(f.name, v)
        data[f.name] = v
    try:
        return Goal(**data)
    except ValidationError as exc:
        exc.message = f"{origin}: {exc.message}"
        raise


def project_goal(project: Any) -> Goal | None:
    """The project's goal, or None when none is set."""
    row = project.goal
    return goal_from_row(row) if row.kind else None


@dataclass(frozen=True)
class Candidate:
    """One design to try: a server type and count on a fabric template, oversubscription and rack density."""

    server: str
    servers: int
    template: str
    oversub: float
    rack_budget_kw: float | None
    switch: str
    cooling_id: str = ""  # "" = the engine chooses per rack by density
    gpus: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def key(self) -> tuple[Any, ...]:
        return (
            self.server, self.servers, self.template, self.oversub, self.rack_budget_kw or 0.0, self.switch,
            self.cooling_id,
        )  # fmt: skip
