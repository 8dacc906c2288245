"""Names of catalog entries in a language, the same in the report (bill of materials, appendix, sources), the
desktop (catalog tree, model lists, rack elevation, advisor) and the checks' messages.

English keeps the catalog's ``name``. Chinese uses ``name_zh`` when it says what the thing is (it holds the
kind's word: "服务器", "交换机", …); otherwise it builds a vendor-neutral description from the entry's kind and
key figures, keeping the model name (a proper noun): "GPU 服务器 DGX H100（8 × H100 SXM5 80GB）",
"光模块 MMA4Z00-NS400（400G OSFP，多模 (MMF)）", "机柜（42U，600 × 1200 mm）". Generic entries (vendor
"Generic …") have a describing model in English, so only the kind and figures are printed.
"""

from __future__ import annotations

import re
from typing import Any

from gpuplanner import text
from gpuplanner.core import numfmt as fmt


def _t(key: str, lang: str, **params: Any) -> str:
    return text.render(key, lang, **params)


def kind_word(e: Any, lang: str) -> str:
    """The words for what the entry is ("GPU 服务器", "InfiniBand 交换机", "多模光纤跳线")."""
    kind = str(getattr(e, "kind", "") or "")
    sub = {
        "server": "" if int(getattr(e, "gpu_count", 0) or 0) > 0 else "cpu",
        "switch": str(getattr(e, "technology", "") or ""),
        "cable": str(getattr(e, "medium", "") or ""),
        "pdu": str(getattr(e, "form", "") or ""),
    }.get(kind, "")
    for key in (f"kindword_{kind}_{sub}" if sub else "", f"kindword_{kind}"):
        if key and text.has(key):
            return _t(key, lang)
    return kind


def _connector(slug: str) -> str:
    return {"duplex-lc": "LC"}.get(slug, slug.upper())


_ENGLISH_WORD = re.compile(r"(?<![\w-])[a-z][a-z-]{2,}\b")


def short_model(model: str) -> str:
    """The model name without English describing words: "GB200 (per Blackwell GPU)" → "GB200", "WEKApod node
    (per node of an 8-node cluster)" → "WEKApod", "Starline Track Busway T5, 800 A, 415 V" → "Starline Track
    Busway T5"; "PowerEdge XE9680 (HGX H200)" stays."""
    s = re.sub(r"\s*\(([^()]*)\)", lambda m: "" if _ENGLISH_WORD.search(m.group(1)) else m.group(0), model)
    depth = 0
    for i, ch in enumerate(s):  # cut at the first ", " outside brackets
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and s.startswith(", ", i):
            s = s[:i]
            break
    s = _ENGLISH_WORD.sub("", s)
    return " ".join(s.split()) or model


def _model_of(catalog: Any, eid: Any) -> str:
    other = catalog.entries.get(eid) if eid else None
    return short_model(str(other.model)) if other is not None else str(eid or "")


def figures(e: Any, catalog: Any, lang: str) -> list[str]:
    """The entry's key figures as short labels in ``lang`` (may be empty)."""
    kind = getattr(e, "kind", "")
    out: list[str] = []
    if kind == "server" and getattr(e, "gpu_count", 0):
        out.append(_t("fig_count_of", lang, n=fmt.integer(e.gpu_count), what=_model_of(catalog, e.gpu)))
    elif kind == "switch":
        groups = [pg for pg in getattr(e, "port_groups", ()) or () if pg.role == "fabric"]
        if groups:
            pg = max(groups, key=lambda g: g.count)
            speed = _t("fig_gbps", lang, speed=fmt.value(pg.speed_gbps))
            out.append(_t("fig_count_of", lang, n=fmt.integer(pg.count), what=speed))
    elif kind == "storage":
        if getattr(e, "capacity_tb", 0):
            out.append(_t("fig_tb", lang, tb=fmt.integer(e.capacity_tb)))
        if getattr(e, "read_gbyte_per_s", 0):
            out.append(_t("fig_read", lang, gbs=fmt.value(e.read_gbyte_per_s)))
    elif kind == "nic":
        speed = _t("fig_gbps", lang, speed=fmt.value(e.speed_gbps))
        out.append(_t("fig_count_of", lang, n=fmt.integer(e.port_count or 1), what=speed))
    elif kind == "transceiver":
        form = str(e.form_factor or "").upper()
        speed_form = _t("fig_gbps_form", lang, speed=fmt.value(e.speed_gbps), form=form)
        ports = int(getattr(e, "ports", 1) or 1)  # twin-port modules: "2 × 400G OSFP"
        out.append(_t("fig_count_of", lang, n=ports, what=speed_form) if ports > 1 else speed_form)
        if text.has(f"fiber_{e.fiber}"):
            out.append(_t(f"fiber_{e.fiber}", lang))
    elif kind == "cable":
        out.append(_t("fig_gbps", lang, speed=fmt.value(e.speed_gbps)))
        if e.connector:
            out.append(_connector(str(e.connector)))
    elif kind == "rack":
        w, d = fmt.integer(e.width_mm), fmt.integer(e.depth_mm)
        out.append(_t("fig_rack", lang, ru=fmt.integer(e.ru), w=w, d=d))
    elif kind == "pdu":
        v, a = fmt.value(e.voltage_v), fmt.value(e.current_a)
        out.append(_t("fig_pdu", lang, phases=fmt.integer(e.phases), v=v, a=a))
    elif kind == "gpu" and getattr(e, "mem_gb", 0):
        out.append(_t("fig_mem", lang, gb=fmt.value(e.mem_gb), mem=e.mem_type or ""))
    elif kind == "cooling" and getattr(e, "max_kw_per_rack", 0):
        out.append(_t("fig_kw_per_rack", lang, kw=fmt.value(e.max_kw_per_rack)))
    return [f.strip() for f in out if f.strip()]


def described(e: Any, catalog: Any, lang: str) -> str:
    """The kind in words, the model name and the key figures."""
    kind = kind_word(e, lang)
    figs = figures(e, catalog, lang)
    joined = figs[0] if figs else ""
    for f in figs[1:]:
        joined = _t("fig_join", lang, a=joined, b=f)
    generic = str(getattr(e, "vendor", "") or "").lower().startswith("generic")
    if generic and joined:
        return _t("entry_label_generic", lang, kind=kind, figures=joined)
    model = short_model(str(getattr(e, "model", "") or getattr(e, "name", "")))
    if joined:
        return _t("entry_label", lang, kind=kind, model=model, figures=joined)
    return _t("entry_label_plain", lang, kind=kind, model=model)


def says_its_kind(name: str, e: Any, lang: str) -> bool:
    """Whether ``name`` holds the kind's own word (its last word: "服务器", "交换机", "光模块", "跳线")."""
    core = kind_word(e, lang).split()[-1]
    core = core.split("（")[0]
    return bool(core) and core in name


def local_name(e: Any, catalog: Any, lang: str) -> str:
    """The entry's name in ``lang``: the catalog's name in English; in Chinese ``name_zh`` when it names the
    kind, else a description built from the kind and figures. A model's name ("Llama 3 70B") is a proper
    noun in every language."""
    if lang != "zh" or getattr(e, "kind", "") == "model":
        return str(e.name)
    zh = str(getattr(e, "name_zh", "") or "")
    if zh and says_its_kind(zh, e, lang):
        return zh
    return described(e, catalog, lang)


def named(e: Any, catalog: Any) -> text.Named:
    """The entry's name in every language, as a message's value: a check names a catalog entry with it, and
    the sentence shows the name in the sentence's language ("… above the 40.0 kW the rack type 48U rack, …"
    / "…高于机柜型号 机柜（48U，600 × 1,200 mm）的额定 40.0 kW。")."""
    return text.Named(params={lang: local_name(e, catalog, lang) for lang in text.LANGS})


def name_of(catalog: Any, entry_id: Any, lang: str) -> str:
    """The name in ``lang`` of the entry ``entry_id``; the id itself when the catalog has no such entry."""
    e = catalog.entries.get(entry_id) if entry_id else None
    return local_name(e, catalog, lang) if e is not None else str(entry_id or "")
