"""Update the UI translations: extract every translatable string of ``gpuplanner/ui`` into
``resources/translations/gpuplanner_<lang>.ts`` (pyside6-lupdate; new strings arrive as "unfinished",
vanished ones are dropped) and compile each .ts into the ``.qm`` the app loads (pyside6-lrelease).

    python tools/translations.py            # update the .ts files, then compile the .qm files
    python tools/translations.py --check    # exit 1 when a string is missing, unfinished or a .qm is stale,
                                            # or a message of gpuplanner/text lacks Chinese
    python tools/translations.py --release  # only compile (after editing a .ts in Qt Linguist or by hand)

The app loads ``gpuplanner_<lang>.qm`` where ``lang`` is the first part of the locale (``zh`` for zh_CN),
see ``gpuplanner.ui.i18n``. Both the .ts and the .qm are committed: a fresh clone and the installer work
without a build step, and ``tests/ui/test_translations.py`` fails when the .qm does not match the .ts.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "gpuplanner" / "ui"
OUT = ROOT / "resources" / "translations"
LANGUAGES = {"zh": "zh_CN", "en": "en"}  # file suffix → the .ts target language
# English is the source text: its .ts holds only the plural forms of the %n messages ("%Ln rack(s)" →
# "1 rack" / "2 racks"), as Qt's lupdate -pluralonly makes it.
PLURAL_ONLY = {"en"}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%L?n")
NUMERUS_SEP = "\x1f"


def tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease: next to this Python (a venv), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6 (pip install -e .) and run with that Python")
    return found


def sources() -> list[Path]:
    return sorted(p for p in SOURCES.rglob("*.py") if "__pycache__" not in p.parts)


def ts_path(lang: str) -> Path:
    return OUT / f"gpuplanner_{lang}.ts"


def qm_path(lang: str) -> Path:
    return OUT / f"gpuplanner_{lang}.qm"


def lupdate(ts: Path, target_language: str) -> None:
    cmd = [tool("pyside6-lupdate"), *map(str, sources()), "-no-obsolete", "-locations", "none"]
    if target_language.split("_")[0] in PLURAL_ONLY:
        cmd.append("-pluralonly")
    cmd += ["-target-language", target_language, "-ts", str(ts)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def lrelease(ts: Path, qm: Path) -> str:
    cmd = [tool("pyside6-lrelease"), "-nounfinished", "-removeidentical", str(ts), "-qm", str(qm)]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    translation: str
    kind: str  # "" (finished), "unfinished", "vanished", "obsolete"


def read_ts(ts: Path) -> list[Message]:
    out = []
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            t = m.find("translation")
            text = (t.text or "") if t is not None else ""
            forms = [f.text or "" for f in t.iter("numerusform")] if t is not None else []
            if forms:  # a %n message: every plural form must be there (NUMERUS_SEP between them)
                text = NUMERUS_SEP.join(forms) if all(f.strip() for f in forms) else ""
            out.append(
                Message(
                    name,
                    m.findtext("source") or "",
                    text,
                    (t.get("type") or "") if t is not None else "unfinished",
                )
            )
    return out


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def problems(lang: str) -> list[str]:
    """What is wrong with the committed translation of ``lang`` (empty when it is complete and current)."""
    ts = ts_path(lang)
    if not ts.exists():
        return [f"{ts.relative_to(ROOT)} is missing: run python tools/translations.py"]
    committed = read_ts(ts)
    have = {(m.context, m.source) for m in committed}
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / ts.name
        lupdate(fresh, LANGUAGES[lang])
        wanted = {(m.context, m.source) for m in read_ts(fresh)}
    for ctx, src in sorted(wanted - have):
        out.append(f"not in {ts.name}: [{ctx}] {src!r} — run python tools/translations.py and translate it")
    for m in committed:
        if (m.context, m.source) not in wanted:
            out.append(
                f"no longer in the code: [{m.context}] {m.source!r} — run python tools/translations.py"
            )
        elif m.kind or not m.translation.strip():
            out.append(f"not translated ({m.kind or 'empty'}): [{m.context}] {m.source!r}")
        elif any(placeholders(f) != placeholders(m.source) for f in m.translation.split(NUMERUS_SEP)):
            out.append(f"placeholders differ: [{m.context}] {m.source!r} → {m.translation!r}")
    qm = qm_path(lang)
    if not qm.exists():
        out.append(f"{qm.relative_to(ROOT)} is missing: run python tools/translations.py --release")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            fresh_qm = Path(tmp) / qm.name
            lrelease(ts, fresh_qm)
            if fresh_qm.read_bytes() != qm.read_bytes():
                out.append(
                    f"{qm.relative_to(ROOT)} is not compiled from {ts.name}: run tools/translations.py"
                )
    return out


def text_problems() -> list[str]:
    """What is wrong with the text package (``gpuplanner/text``: findings, report, engine messages): an id
    without English or Chinese, or whose two languages name different placeholders."""
    sys.path.insert(0, str(ROOT))
    from gpuplanner import text

    out = []
    for msg_id, (en, zh) in text.MESSAGES.items():
        if not en.strip() or not zh.strip():
            out.append(f"text: {msg_id} has no {'Chinese' if en.strip() else 'English'}")
        elif msg_id != "long_date" and text.fields(en) != text.fields(zh):  # the date: month name vs number
            out.append(
                f"text: placeholders differ in {msg_id}: {sorted(text.fields(en))} / {sorted(text.fields(zh))}"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report missing/unfinished strings, change nothing")
    ap.add_argument("--release", action="store_true", help="only compile the .ts files into .qm files")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.check:
        found = [f"{lang}: {p}" for lang in LANGUAGES for p in problems(lang)] + text_problems()
        print("\n".join(found) or "translations complete and compiled")
        return 1 if found else 0
    for lang, target in LANGUAGES.items():
        ts = ts_path(lang)
        if not args.release:
            lupdate(ts, target)
        msgs = read_ts(ts)
        todo = sum(1 for m in msgs if m.kind or not m.translation.strip())
        print(f"{ts.relative_to(ROOT)}: {len(msgs)} strings, {todo} to translate")
        print(lrelease(ts, qm_path(lang)).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
