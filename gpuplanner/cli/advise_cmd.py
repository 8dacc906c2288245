"""`gpuplanner advise`: from a goal and the site's limits to the Pareto front of cluster designs, written as
one project file per design plus designs.json."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from gpuplanner.cli.common import output_language, print_json, print_table
from gpuplanner.core.errors import PlannerError, ValidationError
from gpuplanner.core.safeio import atomic_write
from gpuplanner.text import render, word

# goal field ← option (the option's dest is the field name)
_FLOAT = {
    "total_tokens": "--tokens",
    "deadline_days": "--deadline-days",
    "requests_per_s": "--requests-per-s",
    "ttft_s_max": "--ttft",
    "tpot_s_max": "--tpot",
    "facility_kw_max": "--facility-kw",
    "rack_kw_max": "--rack-kw",
    "capex_usd_max": "--capex-usd",
    "tco_usd_max": "--tco-usd",
    "ttft_percentile": "--ttft-percentile",
    "tpot_percentile": "--tpot-percentile",
    "users": "--users",
    "think_time_s": "--think-time",
    "kv_fraction": "--kv-fraction",
}
_INT = {
    "max_seqs": "--max-seqs",
    "max_batched_tokens": "--max-batched-tokens",
    "global_batch": "--global-batch",
    "prompt_len": "--prompt-len",
    "output_len": "--output-len",
    "racks_max": "--racks",
    "max_servers": "--max-servers",
}
# yes/no goal fields: --X / --no-X (None: the goal's own value)
_BOOL = {
    "chunked_prefill": "--chunked-prefill",
    "gemm_allreduce_fusion": "--gemm-allreduce-fusion",
}
_LIST = {
    "servers": "--servers",
    "vendors": "--vendors",
    "cooling": "--cooling",
    "templates": "--templates",
    "oversubs": "--oversubs",
}
_TEXT = {
    "model_id": "--model",
    "precision": "--precision",
    "region": "--region",
    "objective": "--objective",
    "serving_mode": "--serving",
    "serving_stack": "--serving-stack",
    "prompt_dataset": "--prompt-dataset",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "advise",
        help="design advisor: the best clusters for a goal within the site's limits (Pareto front)",
        description="Search server types, counts, fabrics, oversubscription, rack density and cooling for a "
        "training goal (model, tokens, deadline) or a serving goal (request rate, TTFT/TPOT targets) within "
        "the site's limits; write the Pareto-optimal designs as project files and designs.json.",
    )
    p.add_argument(
        "project",
        nargs="?",
        metavar="PROJECT",
        help="a .gpuplan file: its goal (gpuplanner set PROJECT goal=FILE) is used when --goal is not given",
    )
    p.add_argument("--goal", metavar="FILE", help="a YAML/JSON goal file (options below override its fields)")
    p.add_argument(
        "--save-goal",
        action="store_true",
        help="write the goal searched (file and options over the project's goal) into PROJECT",
    )
    p.add_argument("--inference", action="store_true", help="a serving goal instead of a training goal")
    helps = {
        "precision": "bf16 (default), fp16, fp8, or fp4 (inference goals only: GPUs with FP4 tensor cores)",
        "serving_mode": "inference goals: aggregated (default), disaggregated or best, as estimate --serving",
        "serving_stack": "inference goals: vllm (default) or trtllm, how the KV cache is sized, as estimate "
        "--serving-stack",
        "prompt_dataset": "inference goals: prompt lengths vary as in this dataset "
        "(catalogs/validation/inference_datasets.yaml, e.g. mlperf-llama2-70b; --prompt-len must be its mean), "
        "as estimate --prompt-dataset",
        "ttft_percentile": "inference goals: the --ttft target holds at this percentile of requests (e.g. 99); "
        "default 0: in the mean, as estimate --ttft-percentile",
        "tpot_percentile": "inference goals: the --tpot target holds for this percentile of requests (e.g. 99); "
        "default 0: in the mean, as estimate --tpot-percentile",
        "users": "inference goals: concurrent users to serve (with or instead of --requests-per-s), as estimate "
        "--users",
        "think_time_s": "inference goals: seconds a user waits between requests (default 0), as estimate "
        "--think-time",
        "kv_fraction": "inference goals: the --serving-stack's KV-cache share as your deployment sets it, in (0, 1] "
        "(vllm --gpu-memory-utilization, trtllm free_gpu_memory_fraction); default 0: the stack's documented "
        "default, as estimate --kv-fraction",
        "max_seqs": "inference goals: the most sequences one replica runs at once, as your deployment caps it (vllm "
        "--max-num-seqs, trtllm max_batch_size); default 0: the stack's default, as estimate --max-seqs",
        "max_batched_tokens": "inference goals: the most tokens one engine step carries, decode plus prefill, as "
        "your deployment sets it (trtllm max_num_tokens, vllm --max-num-batched-tokens); default 0: the engine's "
        "default, as estimate --max-batched-tokens",
        "chunked_prefill": "inference goals: --no-chunked-prefill runs whole prompts in their own prefill-only steps "
        "while the decodes wait (vllm V0, enable_chunked_prefill False), as estimate --no-chunked-prefill; default: "
        "prompts chunked into the decode steps",
        "gemm_allreduce_fusion": "inference goals: each tensor-parallel all-reduce fused into the GEMM before it "
        "(trtllm-build --gemm_allreduce_plugin), as estimate --gemm-allreduce-fusion; default: a separate all-reduce",
    }
    for table, conv in ((_FLOAT, float), (_INT, int)):
        for dest, opt in table.items():
            p.add_argument(opt, dest=dest, type=conv, default=None, help=helps.get(dest))
    for dest, opt in _BOOL.items():
        p.add_argument(
            opt, dest=dest, action=argparse.BooleanOptionalAction, default=None, help=helps.get(dest)
        )
    for dest, opt in {**_LIST, **_TEXT}.items():
        p.add_argument(
            opt, dest=dest, default=None, help="comma-separated" if dest in _LIST else helps.get(dest)
        )
    p.add_argument("--workers", type=int, default=None, help="local worker processes (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://host:8786")
    p.add_argument("-o", "--out", metavar="DIR", help="write designs.json and one .gpuplan per design here")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--lang",
        choices=["en", "zh"],
        help="language of the text output (default: the PROJECT's, else $GPUPLANNER_LANG, else English; "
        "--json and designs.json are the same in both)",
    )
    p.set_defaults(func=_cmd_advise)


def _options_given(args: argparse.Namespace) -> bool:
    return args.inference or any(
        getattr(args, d) is not None for d in (*_FLOAT, *_INT, *_BOOL, *_LIST, *_TEXT)
    )


def goal_from_args(args: argparse.Namespace, project=None):
    """The goal searched: a --goal file, else the project's goal, else the defaults; options override its
    fields."""
    from gpuplanner.advisor.goal import goal_from_dict, project_goal, read_goal

    data: dict[str, Any] = {}
    if args.goal:
        data = read_goal(args.goal).to_json()
    elif project is not None:
        goal = project_goal(project)
        if goal is None and not _options_given(args):
            raise ValidationError(
                f"{args.project}: the project has no goal",
                field="goal",
                hint=f"gpuplanner set {args.project} goal=GOAL.yaml, or pass --goal FILE or the goal's options",
            )
        data = goal.to_json() if goal is not None else {}
    if args.inference:
        data["kind"] = "inference"
    for dest in (*_FLOAT, *_INT, *_BOOL, *_LIST, *_TEXT):
        v = getattr(args, dest)
        if v is not None:
            data[dest] = v
    return goal_from_dict(data, "options")


def _executor(args: argparse.Namespace):
    if args.workers is not None and not 1 <= args.workers <= 1024:
        raise ValidationError("--workers must be between 1 and 1024", field="workers", value=args.workers)
    if not args.dask:
        return None, None
    try:
        from distributed import Client
    except ImportError as exc:
        raise PlannerError(
            "--dask needs the 'distributed' package", hint="pip install 'gpuplanner[cluster]'"
        ) from exc
    try:
        client = Client(args.dask, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise PlannerError(f"cannot reach the Dask scheduler at {args.dask} ({exc})") from exc
    return client.get_executor(), client


class _Bar:
    """A progress line on a terminal's stderr (nothing when stderr is a file or a pipe)."""

    def __init__(self) -> None:
        self.on = sys.stderr.isatty()

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.on:
            width = 30
            fill = int(width * done / max(total, 1))
            sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {what[:30]:30}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.on:
            sys.stderr.write("\n")


def _cmd_advise(args: argparse.Namespace) -> int:
    from gpuplanner.advisor import advise

    project = None
    if args.project:
        from gpuplanner.storage import open_project

        project = open_project(args.project)
    elif args.save_goal:
        raise ValidationError("--save-goal needs a PROJECT to write the goal into", field="save-goal")
    goal = goal_from_args(args, project)
    if args.save_goal:
        _save_goal(project, goal, args.project)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PlannerError(f"{out_dir}: cannot create the output folder ({exc.strerror})") from exc
        if not os.access(out_dir, os.W_OK):
            raise PlannerError(f"{out_dir}: the output folder is not writable")
    executor, client = _executor(args)
    bar = _Bar()
    try:
        res = advise(goal, executor=executor, workers=args.workers, progress=bar)
    finally:
        bar.close()
        if client is not None:
            client.close()
    summary = designs_json(res)
    if out_dir is not None:
        write_designs(res, summary, out_dir)
    if args.json:
        print_json(summary)
    else:
        lang = args.lang or (project.info.language if project is not None else output_language(args))
        _print(res, summary, out_dir, lang if lang in ("en", "zh") else "en")
    return 0


def _save_goal(project, goal, path: str) -> None:
    """The goal into the project's goal table, through the same command and checks as every edit."""
    from gpuplanner.advisor.goal import goal_row
    from gpuplanner.commands import SetFields
    from gpuplanner.storage import save_project

    row = goal_row(goal)
    SetFields(project, "goal", "goal", **{k: getattr(row, k) for k in row.__slots__ if k != "id"}).apply(
        project
    )
    save_project(project, path)


def designs_json(res) -> dict[str, Any]:
    g = res.goal
    designs = []
    for i, d in enumerate(res.front, 1):
        row = {
            "rank": i,
            "file": f"design-{i:02d}-{d['server']}-{d['servers']}.gpuplan",
            "gpus": d["gpus"],
            "server": d["server"],
            "servers": d["servers"],
            "fabric": d["fabric"],
            "oversubscription": d["oversub"],
            "switch": d["switch"],
            "rack_budget_kw": d["rack_budget_kw"],
            "cooling": d["cooling"],
            "racks": d["racks"],
            "facility_kw_max": d["facility_kw_max"],
            "capex_usd": d["capex_usd"],
            "tco_usd": d["tco_usd"],
            "tco_years": d["tco_years"],
            "findings_errors": d["findings_errors"],
            "findings_warnings": d["findings_warnings"],
            "binding_constraint": d["binding"],
            "limits": d["limits"],
            "layout": d["layout"],
        }
        if "ideal_fabric_layout" in d:  # the drawn fabric slowed that layout: "layout" trains faster on it
            row["ideal_fabric_layout"] = d["ideal_fabric_layout"]
        for key in ("npv_usd", "step_time_s", "step_time_s_range", "mfu", "time_to_train_days"):
            if key in d:
                row[key] = d[key]
        if "time_to_train_days_range" in d:
            row["time_to_train_days_range"] = d["time_to_train_days_range"]
        if g.kind == "inference":
            row["requests_per_s_max"] = d["requests_per_s_max"]
            if g.users > 0:
                row["users_max"] = d["users_max"]
            row["serving"] = d["serving"]
        designs.append(row)
    return {
        "goal": g.to_json(),
        "designs": designs,
        "candidates": res.candidates,
        "evaluated": res.evaluated,
        "feasible": sum(1 for d in res.designs if d.get("feasible")),
        "pruned": res.pruned,
        "left_out": res.left_out,
        "seconds": res.seconds,
        "executor": res.workers,
    }


def write_designs(res, summary: dict[str, Any], out_dir: Path) -> None:
    """One project file per design of the front, rebuilt here from its candidate (the same generator and
    layout the worker used), and designs.json."""
    from gpuplanner.advisor.evaluate import build_project
    from gpuplanner.advisor.goal import Candidate
    from gpuplanner.storage import save_project

    for d, row in zip(res.front, summary["designs"], strict=True):
        cand = Candidate(**{k: v for k, v in d["candidate"].items() if k != "extra"})
        p = build_project(res.goal, cand, d["layout"])
        p.tables["project"]["project"] = dataclasses.replace(p.info, name=_name(res.goal, row))
        save_project(p, out_dir / row["file"])
    atomic_write(out_dir / "designs.json", json.dumps(_finite(summary), indent=2, ensure_ascii=False))


def _name(goal, row: dict[str, Any]) -> str:
    return f"Option {row['rank']}: {row['servers']} × {row['server']} ({row['fabric']})"


def _finite(v: Any) -> Any:
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_finite(x) for x in v]
    return v


def _load(g, lang: str) -> str:
    parts = [render("adv.load_rate", lang, rate=g.requests_per_s)] if g.requests_per_s > 0 else []
    if g.users > 0:
        think = render("adv.think", lang, s=g.think_time_s) if g.think_time_s else ""
        parts.append(render("adv.load_users", lang, users=g.users, think=think))
    return render("adv.load_and", lang, a=parts[0], b=parts[1]) if len(parts) == 2 else "".join(parts)


def _targets(g, lang: str) -> str:
    def at(p: float) -> str:
        return render("adv.at_percentile", lang, p=p) if p else ""

    return render(
        "adv.targets",
        lang,
        ttft=g.ttft_s_max,
        ttft_at=at(g.ttft_percentile),
        tpot=g.tpot_s_max * 1000,
        tpot_at=at(g.tpot_percentile),
    )


def _serving_extras(g, lang: str) -> str:
    out = render("adv.extra_stack", lang, stack=g.serving_stack) if g.serving_stack != "vllm" else ""
    if g.kv_fraction:
        out += render("adv.extra_kv", lang, f=g.kv_fraction)
    if g.max_seqs:
        out += render("adv.extra_seqs", lang, n=g.max_seqs)
    if g.max_batched_tokens:
        out += render("adv.extra_tokens", lang, n=g.max_batched_tokens)
    if not g.chunked_prefill:
        out += render("adv.extra_unchunked", lang)
    if g.gemm_allreduce_fusion:
        out += render("adv.extra_fusion", lang)
    if g.prompt_dataset:
        out += render("adv.extra_prompts", lang, dataset=g.prompt_dataset)
    return out


def _print(res, summary: dict[str, Any], out_dir: Path | None, lang: str = "en") -> None:
    """The goal, the search, the pruning and the front as a table in ``lang``: English keeps the catalog ids
    a user types (--servers); Chinese names servers and models as the report and the desktop do."""
    from gpuplanner.advisor import evaluate as ev
    from gpuplanner.advisor.run import left_out_by_reason
    from gpuplanner.catalog.names import name_of
    from gpuplanner.text.cli_advise import PRUNE_SLUGS

    cat = ev.catalog()

    def name(entry_id: str) -> str:
        return entry_id if lang == "en" else name_of(cat, entry_id, lang)

    g = res.goal
    model = name(g.model_id)
    what = (
        render("adv.goal_train", lang, model=model, tokens=f"{g.total_tokens:.3g}", days=g.deadline_days)
        if g.kind == "training"
        else render(
            "adv.goal_serve",
            lang,
            model=model,
            load=_load(g, lang),
            targets=_targets(g, lang),
            mode=g.serving_mode,
            extras=_serving_extras(g, lang),
        )
    )
    print(render("adv.goal", lang, what=what))
    print(
        render(
            "adv.search",
            lang,
            cands=summary["candidates"],
            pruned=sum(res.pruned.values()),
            evaluated=res.evaluated,
            feasible=summary["feasible"],
            seconds=res.seconds,
            executor=res.workers,
        )
    )
    for why, n in sorted(res.pruned.items(), key=lambda x: -x[1]):
        slug = PRUNE_SLUGS.get(why)
        print(render("adv.pruned", lang, why=render(f"adv.prune.{slug}", lang) if slug else why, n=n))
    for why, servers in left_out_by_reason(res, lang):
        listed = render("col.list_separator", lang).join(name(s) for s in servers)
        print(render("adv.left_out", lang, servers=listed, why=why))
    if not res.front:
        print(render("adv.none", lang))
        return
    with_users = g.kind == "inference" and g.users > 0  # the users each design serves, beside its rate
    rows = []
    for r, d in zip(summary["designs"], res.front, strict=True):
        perf = d.get("time_to_train_days") if g.kind == "training" else d.get("requests_per_s_max")
        cooling = [r_c if lang == "en" else word("cooling", r_c, lang) for r_c in r["cooling"]]
        rows.append(
            [
                r["rank"],
                f"{r['servers']} × {name(r['server'])}",
                r["gpus"],
                f"{r['fabric']} {r['oversubscription']:g}:1",
                render("col.list_separator", lang).join(cooling),
                f"{perf:,.1f}" if perf is not None else "—",
                *([f"{d['users_max']:,.0f}"] if with_users else []),
                f"{r['facility_kw_max']:,.0f}",
                f"{r['capex_usd'] / 1e6:,.1f}",
                f"{r['tco_usd'] / 1e6:,.1f}",
                word("advisor_limit", r["binding_constraint"], lang),
            ]
        )
    cols = ["servers", "gpus", "fabric", "cooling", "days" if g.kind == "training" else "rate"]
    cols += ["users"] if with_users else []
    cols += ["facility_kw", "capex", "tco", "binding"]
    print_table(rows, ["#", *(render(f"adv.col.{c}", lang) for c in cols)])
    if out_dir is not None:
        print(render("adv.wrote", lang, n=len(rows), folder=out_dir))
