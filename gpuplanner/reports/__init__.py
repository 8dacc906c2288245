"""The PDF proposal (reportlab), built headless from a project and its analysis.

``build_report(project, path, lang=None, scenario=None)`` analyses the project (as the named scenario sees it),
takes every figure from ``results_json`` — the same figures as ``gpuplanner analyze --json`` and the app — and
writes the report atomically. The desktop window calls the same function for Export PDF.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import PlannerError, ValidationError
from gpuplanner.core.safeio import current_umask
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.phases import analyze_phases
from gpuplanner.engine.scenarios import analyze_scenario
from gpuplanner.engine.summary import results_json
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.fonts import fonts_for
from gpuplanner.reports.i18n import LANGS
from gpuplanner.reports.story import make_story, write_pdf
from gpuplanner.reports.styles import make_styles
from gpuplanner.text import Msg

__all__ = ["ReportError", "ReportWarning", "build_report", "new_context", "phase_figures", "scenario_figures"]


class ReportError(PlannerError):
    """The report cannot be written (folder missing, no permission, disk full)."""


class ReportWarning(UserWarning):
    """Something the report left out (e.g. a logo file that cannot be read); the report is still written."""


def _default_warn(message: str) -> None:
    warnings.warn(message, ReportWarning, stacklevel=3)


def scenario_figures(
    project: Any, lang: str, base: Any = None
) -> list[tuple[str, str, dict[str, Any] | str]]:
    """Each scenario analysed: (name, description, results_json or the one-line error). The project as drawn
    is solved once; a scenario that changes only prices, rates or the workload reuses its upstream stages
    (engine/scenarios.py), the others are solved in full. ``base``: results of the project as drawn that the
    caller already has (the report's own, when it prints the plan as drawn)."""
    out: list[tuple[str, str, dict[str, Any] | str]] = []
    scenarios = list(project.tables["scenarios"].values())
    if base is not None and (base.scenario or base.phase):
        base = None  # results of another view: not the plan as drawn
    try:
        if base is None and scenarios:
            base = analyze(project, None)
    except PlannerError:
        base = None
    for sc in scenarios:
        try:
            res = analyze(project, sc.name, base)
            out.append((sc.name, sc.description, results_json(project, res, lang)))
        except PlannerError as exc:
            out.append((sc.name, sc.description, exc.one_line()))
    return out


def phase_figures(project: Any, scenario: str | None, lang: str) -> tuple[list[Any], list[Any]]:
    """Each phase analysed as the cluster it makes (the ``phases`` of ``analyze --json``) and the growth
    findings between phases."""
    try:
        return analyze_phases(project, scenario=scenario, lang=lang)
    except PlannerError:
        raise
    except (ValueError, IndexError, KeyError, ZeroDivisionError, FloatingPointError) as exc:
        reason = f"{exc.__class__.__name__}: {exc}"
        raise ReportError(Msg("error.report.phases_failed", {"reason": reason})) from exc


def analyze(project: Any, scenario: str | None, base: Any = None, *, phase: str | None = None) -> Any:
    """The analysis the report prints; an engine failure becomes one clear line instead of a traceback.
    ``base``: the results of the project as drawn, which a settings-only scenario builds on; ``phase``: the
    plan at the end of that phase (name or id)."""
    try:
        if phase:
            return analyze_project(project, scenario=scenario, phase=phase)
        if scenario:
            return analyze_scenario(project, scenario, base)
        return analyze_project(project, scenario=scenario)
    except PlannerError:
        raise
    except (ValueError, IndexError, KeyError, ZeroDivisionError, FloatingPointError) as exc:
        reason = f"{exc.__class__.__name__}: {exc}"
        raise ReportError(Msg("error.report.analysis_failed", {"reason": reason})) from exc


def new_context(
    project: Any,
    lang: str | None = None,
    scenario: str | None = None,
    *,
    results: Any = None,
    today: dt.date | None = None,
    warn: Callable[[str], None] | None = None,
) -> ReportContext:
    """Everything a section needs: the analysis (made here unless given), its figures, fonts and styles."""
    lang = lang or getattr(project.info, "language", "") or "en"
    if lang not in LANGS:
        raise ValidationError(
            Msg("error.report.no_language", {"lang": lang, "choices": ", ".join(LANGS)}),
            field="lang",
            value=lang,
        )
    if results is None:
        results = analyze(project, scenario)
    fonts = fonts_for(lang)
    return ReportContext(
        project=project,
        results=results,
        data=results_json(project, results, lang),
        lang=lang,
        fonts=fonts,
        styles=make_styles(fonts, lang),
        today=today or dt.date.today(),
        warn=warn or _default_warn,
        scenario=results.scenario or scenario or None,
    )


def build_report(
    project: Any,
    path: str | os.PathLike[str],
    lang: str | None = None,
    scenario: str | None = None,
    *,
    results: Any = None,
    today: dt.date | None = None,
    warn: Callable[[str], None] | None = None,
    options: dict[str, Any] | None = None,
) -> Path:
    """Writes the proposal PDF to ``path`` and returns the path. ``results``: an analysis already made for
    ``scenario`` (the app passes its own); ``warn`` receives what the report had to leave out; ``options``:
    the design advisor's front (a designs.json as a dict) for the "options considered" section."""
    out = Path(path)
    if not out.parent.is_dir():
        raise ReportError(Msg("error.file.no_folder"), file=str(out.parent))
    ctx = new_context(project, lang, scenario, results=results, today=today, warn=warn)
    ctx.options = options
    if len(project.tables["scenarios"]) >= 2:
        ctx.scenarios = scenario_figures(project, ctx.lang, ctx.results)
    if len(project.tables["phases"]) >= 2:
        ctx.phases, ctx.growth = phase_figures(project, ctx.scenario, ctx.lang)
        ctx.data["findings"] = [*ctx.data["findings"], *(f.to_json(ctx.lang) for f in ctx.growth)]
    story = make_story(ctx)
    fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".pdf", dir=str(out.parent))
    os.close(fd)
    try:
        write_pdf(ctx, story, tmp)
        os.chmod(tmp, 0o666 & ~current_umask())  # the user's umask (0644 normally), not mkstemp's 0600
        os.replace(tmp, out)
    except OSError as exc:
        reason = str(exc.strerror or exc)
        raise ReportError(Msg("error.report.cannot_write_report", {"reason": reason}), file=str(out)) from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out
