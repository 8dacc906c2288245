"""Findings: what the checks say about a plan, with severity, rule, the items involved and a fix.

A finding carries its rule and parameters; its sentence is rendered from a template per language
(``TEMPLATES``), so reports in Chinese and English say the same thing without concatenating fragments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    severity: str  # error | warning | info
    rule: str  # slug, e.g. "rack-over-power-budget"
    items: tuple[str, ...]  # model ids (racks, devices, links) involved
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return render(self.rule, "message", lang, self.params)

    def fix(self, lang: str = "en") -> str:
        return render(self.rule, "fix", lang, self.params)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message(lang),
            "fix": self.fix(lang),
            "items": list(self.items),
            "params": self.params,
        }


# rule → {"message": {"en": …, "zh": …}, "fix": {"en": …, "zh": …}}; str.format placeholders from params.
TEMPLATES: dict[str, dict[str, dict[str, str]]] = {}


def register_templates(templates: dict[str, dict[str, dict[str, str]]]) -> None:
    TEMPLATES.update(templates)


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(rule: str, part: str, lang: str, params: dict[str, Any]) -> str:
    t = TEMPLATES.get(rule, {}).get(part, {})
    text = t.get(lang) or t.get("en") or (rule if part == "message" else "")
    shown = {k: _fmt(v) for k, v in params.items()}
    return text.format_map(_Safe(shown))


def _fmt(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"  # "1,024 GPUs", as every other count in the app and the report
    if isinstance(v, float):
        if abs(v) >= 100:
            return f"{v:,.0f}"
        return f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"
    if isinstance(v, list | tuple):
        return ", ".join(str(_fmt(x)) for x in v)
    return v


def sort_findings(findings: list[Finding]) -> list[Finding]:
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(findings, key=lambda f: (order.get(f.severity, 9), f.rule, f.items))
