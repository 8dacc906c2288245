"""`analyze` as text in the project's language (or ``--lang``): every label from the text package
(text/cli_analyze.py; the serving lines are `estimate --inference`'s, text/cli_estimate.py), every number
as `analyze --json` has it. One line, or a short block, per active workload in the table's order."""

from __future__ import annotations

from typing import Any

from gpuplanner import text
from gpuplanner.cli.common import print_table
from gpuplanner.cli.serving_out import settings_line
from gpuplanner.engine.perf.sentences import serving_layout_msg


def _money(x: float | None, cur: str) -> str:
    return "—" if x is None else f"{x:,.0f} {cur}"


def print_analysis(data: dict[str, Any], res: Any, lang: str, racks_shown: int) -> None:
    """``data``: the JSON `analyze --json` prints; ``res``: the analysis it was made from (its workload
    entries hold the refusals as messages, said here in ``lang``)."""

    def say(msg_id: str, **values: Any) -> str:
        return text.render(msg_id, lang, **values)

    cur = data["currency"]
    view = (say("an.scenario", name=data["scenario"]) if data["scenario"] else "") + (
        say("an.phase", name=data["phase"]["name"]) if data.get("phase") else ""
    )
    print(f"{data['project']}{view}")
    fabric = data["fabric"]
    print(
        "  "
        + say(
            "an.size",
            gpus=data["gpus"],
            servers=data["servers"],
            switches=fabric["switches"],
            tbps=fabric["bisection_gbps"] / 1000,
        )
    )
    for line in workload_lines(data, res, lang):
        print("  " + line)
    print(
        "  "
        + say(
            "an.power",
            it=data["it_kw_max"],
            load=data["it_kw_load"],
            pue=data["pue"],
            facility=data["facility_kw_max"],
            mwh=data["annual_mwh"],
        )
    )
    print(
        "  "
        + say(
            "an.cost",
            capex=_money(data["capex"], cur),
            opex=_money(data["opex_per_year"], cur),
            years=data["tco_years"],
            tco=_money(data["tco"], cur),
        )
    )
    share = data["network_share_of_gpu_server_capex"]
    if share is not None:
        print("  " + say("an.network_share", share=share * 100))
    if data["phases"]:
        print()
        _phase_table(data["phases"], cur, say)
    print()
    _rack_table(data["racks"], racks_shown, lang, say)
    print()
    findings = data["findings"]
    print(say("an.findings", n=len(findings)) if findings else say("an.no_findings"))
    for f in findings:
        print(f"  [{text.word('severity', f['severity'], lang)}] {f['message']}")
        if f["fix"]:
            print(f"      → {f['fix']}")


def _phase_table(phases: list[dict[str, Any]], cur: str, say) -> None:
    print_table(
        [
            [
                ph["name"],
                f"{ph['gpus']:,}",
                f"{ph['tokens_per_s']:,.0f}" if ph["tokens_per_s"] else "—",
                f"{ph['it_kw_max']:,.1f}",
                f"{ph['facility_kw_max']:,.1f}",
                f"{ph['pue']:.2f}",
                _money(ph["capex_added"], cur),
                _money(ph["tco"], cur),
                ph["scheduler"],
            ]
            for ph in phases
        ],
        [
            say(c)
            for c in (
                "col.phase",
                "col.gpus",
                "col.tokens_per_s",
                "col.it_kw",
                "col.facility_kw",
                "col.pue",
                "col.capex_added",
                "col.tco",
                "col.scheduler",
            )
        ],
    )


def _rack_table(racks: list[dict[str, Any]], shown: int, lang: str, say) -> None:
    rows = [
        [
            r["name"],
            f"{r['kw_max']:.1f}",
            f"{r['kw_budget']:.0f}" if r["kw_budget"] else "—",
            text.word("cooling", r["cooling"], lang),
            f"{r['airflow_cfm']:,.0f}",
            f"{r['coolant_l_per_min']:.0f}",
        ]
        for r in racks[:shown]
    ]
    headers = ["col.rack", "col.kw_max", "col.kw_budget", "col.cooling", "col.cfm", "col.l_per_min"]
    print_table(rows, [say(h) for h in headers])
    if len(racks) > shown:
        print(say("an.more_racks", n=len(racks) - shown))


# -- workloads ------------------------------------------------------------------------------------------


def workload_lines(data: dict[str, Any], res: Any, lang: str) -> list[str]:
    """A line or a short block (continuation lines indented) per workload of ``data["workloads"]``; the
    primary training workload (``data["performance"]``) with its bottleneck. A primary workload that could
    not be evaluated in a plan without workload entries (no GPUs) keeps its one line."""
    perf = data["performance"]
    primary = res.workload.workload_id if res.workload is not None else None
    entries = {e.id: e for e in res.workloads}
    out: list[str] = []
    for w in data["workloads"]:
        entry = entries.get(w["id"])
        if w["id"] == primary and perf:
            out += _primary(w, perf, lang)
        elif w["kind"] in ("training", "fine-tuning"):
            out += _training(w, entry, lang)
        else:
            out += _serving(w, entry, lang)
    if not data["workloads"] and data["workload_error"]:
        out.append(text.render("an.workload_error", lang, why=data["workload_error"]))
    return out


def _head(w: dict[str, Any], lang: str) -> str:
    return text.render("an.workload", lang, name=w["name"], kind=w["kind"], gpus=w["gpus"])


def _ttt(days: float | None, band: list[float] | None, lang: str) -> str:
    if not days:
        return ""
    rng = text.render("an.range", lang, lo=band[0], hi=band[1]) if band else ""
    return text.render("an.ttt", lang, days=days, range=rng)


def _primary(w: dict[str, Any], perf: dict[str, Any], lang: str) -> list[str]:
    """The primary training workload: the figures of ``performance`` (its step, memory and ranges)."""
    head = _head(w, lang)
    if w["error"]:
        line = text.render(
            "an.train_no_fit", lang, head=head, tp=perf["tp"], pp=perf["pp"], dp=perf["dp"], why=w["error"]
        )
    else:
        line = text.render(
            "an.train",
            lang,
            head=head,
            tp=perf["tp"],
            pp=perf["pp"],
            dp=perf["dp"],
            step=perf["step_time_s"],
            tps=perf["tokens_per_s"],
            mfu=perf["mfu"] * 100,
            gb=perf["memory_per_gpu_gb"],
            ttt=_ttt(perf["time_to_train_days"], perf.get("time_to_train_days_range"), lang),
        )
    return [line, text.render("perf.est.bottleneck", lang, sentence=perf["bottleneck"])]


def _training(w: dict[str, Any], entry: Any, lang: str) -> list[str]:
    """Another training workload on its partition: the entry's figures (step and memory from its estimate,
    which `--json` does not list for it)."""
    head = _head(w, lang)
    layout = w.get("layout")
    if w["error"] or layout is None or entry is None or entry.train is None:
        if layout is not None:
            return [text.render("an.train_no_fit", lang, head=head, **_tpd(layout), why=w["error"])]
        return [text.render("an.not_evaluated", lang, head=head, why=w["error"])]
    e = entry.train.estimate
    line = text.render(
        "an.train",
        lang,
        head=head,
        **_tpd(layout),
        step=e.step_time_s,
        tps=w["tokens_per_s"],
        mfu=w["mfu"] * 100,
        gb=e.memory.get("total_gb", 0.0),
        ttt=_ttt(w["time_to_train_days"], w.get("time_to_train_days_range"), lang),
    )
    return [line]


def _tpd(layout: dict[str, Any]) -> dict[str, Any]:
    return {"tp": layout["tp"], "pp": layout["pp"], "dp": layout["dp"]}


def _refusal(plan: Any, english: str, lang: str) -> str:
    """A serving plan's refusal in ``lang``: its message when that says what the JSON says, else the JSON's."""
    msg = getattr(plan, "refusal_msg", None)
    if msg is not None and msg.render("en") == english:
        return msg.render(lang)
    return english


def _layout(s: dict[str, Any], lang: str) -> str:
    msg = serving_layout_msg(s)  # the advisor window says it the same way
    return msg.render(lang) if msg is not None else ""


def _serving(w: dict[str, Any], entry: Any, lang: str) -> list[str]:
    """A serving workload: its layout on the partition, the capacity within the targets and the figures at
    that load, then the stated load: met or not and the GPUs it needs."""

    def say(msg_id: str, **values: Any) -> str:
        return text.render(msg_id, lang, **values)

    head = _head(w, lang)
    s = w.get("serving")
    if s is None:
        return [say("an.not_evaluated", head=head, why=w["error"] or "")]
    # the stack's KV-cache rule, the prompt-length dataset and a stated KV-cache share, as estimate says them
    settings = "  " + settings_line(w["serving_stack"], w.get("prompt_dataset"), w, lang)
    if not s["fits"]:
        why = _refusal(entry.serving if entry is not None else None, s["refusal"] or w["error"] or "", lang)
        return [say("an.serving_no_fit", head=head, why=why), settings]
    used = say("an.serving_used", gpus=s["gpus"]) if s["gpus"] != w["gpus"] else ""
    out = [say("an.serving", head=head, mode=s["mode"], layout=_layout(s, lang), used=used), settings]
    if w["ttft_s"] is None:  # nothing served within the targets
        out.append("  " + say("an.serving_nothing", why=s["limited_by"] or "nothing"))
    else:
        out.append(
            "  "
            + say(
                "perf.srv.rate",
                rate=w["max_requests_per_s"],
                users=w["max_concurrent_users"],
                why=s["limited_by"] or "nothing",
            )
        )
        out.append(
            "  "
            + say(
                "perf.srv.at_load",
                ttft=w["ttft_s"],
                tpot_ms=w["tpot_s"] * 1e3,
                per_user=w["per_user_tokens_per_s"],
                output=w["output_tokens_per_s"],
                batch=s["decode_batch"],
            )
        )
    target = _target(w, entry, lang)
    if target:
        out.append("  " + target)
    return out


def _target(w: dict[str, Any], entry: Any, lang: str) -> str:
    """The stated load (users or requests/s) within the latency targets: met or not, the GPUs it needs."""

    def say(msg_id: str, **values: Any) -> str:
        return text.render(msg_id, lang, **values)

    limits = []
    if w.get("ttft_target_s"):
        limits.append(say("an.ttft_target", s=w["ttft_target_s"]))
    if w.get("tpot_target_s"):
        limits.append(say("an.tpot_target", ms=w["tpot_target_s"] * 1e3))
    targets = say("col.list_separator").join(limits)
    users, rate = w.get("target_users"), w.get("target_requests_per_s")
    if not users and not rate:
        return say("an.targets_only", targets=targets) if targets else ""
    load = say("an.load_users", users=users) if users else say("an.load_rate", rate=rate)
    within = say("an.within", targets=targets) if targets else ""
    needed = w.get("needed")
    if needed is None:
        return ""
    if not needed["fits"]:
        why = _refusal(entry.needed if entry is not None else None, needed["refusal"], lang)
        return say("an.target_no_fit", load=load, within=within, why=why)
    if not needed["max_requests_per_s"]:  # the engine's smallest layout, serving nothing within the targets
        return say("an.target_unreachable", load=load, within=within, why=needed["limited_by"] or "nothing")
    key = "an.target_met" if w.get("meets_target") else "an.target_not_met"
    return say(key, load=load, within=within, needed=w["gpus_needed"], gpus=w["gpus"])
