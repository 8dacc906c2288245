"""Findings: what the checks say about a plan, with severity, rule, the items involved and the values.

A finding carries its rule and parameters, never a sentence: the sentences live in the text package
(``finding.<rule>`` and ``fix.<rule>`` in ``gpuplanner.text``), so the UI, the report and the CLI say the
same thing in English and Chinese without concatenating fragments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpuplanner import text

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    severity: str  # error | warning | info
    rule: str  # slug, e.g. "rack-over-power-budget"
    items: tuple[str, ...]  # model ids (racks, devices, links) involved
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The sentence, rendered by the text package (a convenience for consumers that hold a Finding)."""
        return text.finding(self.rule, "message", lang, self.params)

    def fix(self, lang: str = "en") -> str:
        return text.finding(self.rule, "fix", lang, self.params)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message(lang),
            "fix": self.fix(lang),
            "items": list(self.items),
            "params": {k: _json_value(v, lang) for k, v in self.params.items()},
        }


def _json_value(v: Any, lang: str) -> Any:
    """A parameter as JSON holds it: a message or a name rendered in ``lang``, a list of names as a list."""
    if isinstance(v, text.Msg):
        return v.render(lang)
    if isinstance(v, list | tuple) and any(isinstance(x, text.Msg) for x in v):
        return [x.render(lang) if isinstance(x, text.Msg) else x for x in v]
    return v


def sort_findings(findings: list[Finding]) -> list[Finding]:
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(findings, key=lambda f: (order.get(f.severity, 9), f.rule, f.items))
