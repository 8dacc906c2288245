"""Moves the engine's flat modules into rooms by stage and rewrites every import of the old paths.

    python tools/engine_rooms.py            # move, rewrite, add the contracts, sort imports, format
    python tools/engine_rooms.py --check    # only report what still uses an old path (exit 1 if anything)

Rooms (gpuplanner/engine/):
- ``fabric/``   routing, routing_fields, routing_graph, fattree_arrays, fabric_graph, network, cabling:
                the drawn topology as a graph, its routes and its cables;
- ``facility/`` power, thermal, cost, electrical, climate, tco, cloud, sensitivity: what the building and
                the money see (climate feeds the thermal stage's PUE; tco, cloud and sensitivity are the
                cost stage's parts and its what-ifs);
- ``checks/``   checks_<name>.py → checks/<name>.py, and findings.py (the Finding record and its sentence
                registry): the rules that read results and say what is wrong.
At the top stay the pipeline and what every room reads: compiled (compile), analysis, runner, cache,
incremental, phases, summary, workload, workloads; ``perf/`` is a room already.

Safe to run again, on this tree or on one where other branches have since added files that import the old
paths: a module already in its room is not moved again, and only text that still names an old path is
rewritten (``gpuplanner.engine.power`` → ``gpuplanner.engine.facility.power`` in imports, in strings such as
monkeypatch targets and in the import-linter contracts; ``from gpuplanner.engine import power`` is split by
room; relative imports that reach a moved module are made absolute; ``engine/power.py`` in comments and
docs). A file that appears again at an old path next to its moved copy is reported, never overwritten.
The contracts that keep the rooms apart are added to pyproject.toml once (matched by name).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "gpuplanner" / "engine"
FABRIC = (
    "routing",
    "routing_fields",
    "routing_graph",
    "fattree_arrays",
    "fabric_graph",
    "network",
    "cabling",
)
FACILITY = ("power", "thermal", "cost", "electrical", "climate", "tco", "cloud", "sensitivity")
ROOM_DOCS = {
    "fabric": "The fabric room: the drawn topology as a graph, its routes (ECMP fields), fat-tree arrays, the "
    "fabric analysis and the cable and optics plan.",
    "facility": "The facility room: power, thermal (cooling, PUE, climate), electrical chain, cost, TCO, the "
    "cloud comparison and the cost sensitivities.",
    "checks": "The checks room: rules that read the other rooms' results and say what is wrong, as findings "
    "(message id + values; the sentences are registered data). Checks import results from the other rooms; "
    "the other rooms never import checks.",
}
# text files whose imports, strings and path mentions are rewritten (this script names the old paths itself)
TREES = ("gpuplanner", "tests", "benchmarks", "tools")
EXTRA_FILES = ("pyproject.toml", "docs/architecture.md", "packaging")
CATALOG_COMMENTS = "catalogs/assumptions"
CONTRACTS = [
    (
        "Engine rooms: fabric, facility and perf never import the checks (checks read results, not the reverse)",
        'type = "forbidden"\n'
        'source_modules = ["gpuplanner.engine.fabric", "gpuplanner.engine.facility", "gpuplanner.engine.perf"]\n'
        'forbidden_modules = ["gpuplanner.engine.checks"]',
    ),
    (
        "Engine rooms: fabric and facility are independent of each other",
        'type = "independence"\nmodules = ["gpuplanner.engine.fabric", "gpuplanner.engine.facility"]',
    ),
    (
        "Engine rooms: no room imports the pipeline above it (analysis, runner, phases, summary)",
        'type = "forbidden"\n'
        "source_modules = [\n"
        '  "gpuplanner.engine.fabric", "gpuplanner.engine.facility", "gpuplanner.engine.checks",\n'
        '  "gpuplanner.engine.perf",\n'
        "]\n"
        "forbidden_modules = [\n"
        '  "gpuplanner.engine.analysis", "gpuplanner.engine.runner", "gpuplanner.engine.phases",\n'
        '  "gpuplanner.engine.summary",\n'
        "]",
    ),
]


def moves() -> dict[str, tuple[str, str]]:
    """old module name (under gpuplanner.engine) → (room, new module name). The checks are every
    ``checks_*.py`` still flat plus every module already in ``checks/`` (so a re-run still rewrites imports
    of ``checks_<name>`` that other branches added)."""
    out = {m: ("fabric", m) for m in FABRIC}
    out.update({m: ("facility", m) for m in FACILITY})
    out["findings"] = ("checks", "findings")
    for p in ENGINE.glob("checks_*.py"):
        out[p.stem] = ("checks", p.stem.removeprefix("checks_"))
    for p in (ENGINE / "checks").glob("*.py") if (ENGINE / "checks").is_dir() else []:
        if p.stem not in ("__init__", "findings"):
            out[f"checks_{p.stem}"] = ("checks", p.stem)
    return out


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


# -- 1. relative imports that reach a moved module → absolute (before moving: they resolve from here) ----
_RELATIVE = re.compile(r"^(?P<indent>[ \t]*)from (?P<dots>\.+)(?P<rest>[\w.]*) import ", re.M)


def absolutize(path: Path, text: str, mv: dict[str, tuple[str, str]]) -> str:
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])

    def repl(m: re.Match[str]) -> str:
        level = len(m["dots"])
        base = package[: len(package) - (level - 1)] if level > 1 else package
        target = ".".join([*base, *([m["rest"]] if m["rest"] else [])])
        engine = "gpuplanner.engine"
        reaches = target == engine or any(
            target == f"{engine}.{old}" or target.startswith(f"{engine}.{old}.") for old in mv
        )
        return f"{m['indent']}from {target} import " if reaches else m.group(0)

    return _RELATIVE.sub(repl, text)


# -- 2. moving ----------------------------------------------------------------------------------------------
def move_files(mv: dict[str, tuple[str, str]]) -> list[str]:
    problems = []
    for room in sorted({r for r, _ in mv.values()}):
        init = ENGINE / room / "__init__.py"
        if not init.exists():
            init.parent.mkdir(exist_ok=True)
            init.write_text(f'"""{ROOM_DOCS[room]}"""\n', encoding="utf-8")
            git("add", str(init.relative_to(ROOT)))
    for old, (room, new) in sorted(mv.items()):
        src, dst = ENGINE / f"{old}.py", ENGINE / room / f"{new}.py"
        if src.exists() and dst.exists():
            problems.append(
                f"{src.relative_to(ROOT)} and {dst.relative_to(ROOT)} both exist: merge them by hand"
            )
        elif src.exists():
            tracked = subprocess.run(
                ["git", "ls-files", "--error-unmatch", str(src.relative_to(ROOT))],
                cwd=ROOT,
                capture_output=True,
                check=False,
            )
            if tracked.returncode == 0:
                git("mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT)))
            else:  # a file not yet added to git moves as a plain file
                src.rename(dst)
    return problems


# -- 3. rewriting text ------------------------------------------------------------------------------------
_FROM_ENGINE = re.compile(
    r"^(?P<indent>[ \t]*)from gpuplanner\.engine import (?P<names>\([^)]*\)|[^\n]*)$",
    re.M,
)


def _split_from_engine(text: str, mv: dict[str, tuple[str, str]]) -> str:
    def repl(m: re.Match[str]) -> str:
        raw = m["names"].strip().removeprefix("(").removesuffix(")")
        names = [n.split("#")[0].strip() for n in raw.replace("\n", ",").split(",")]
        names = [n for n in names if n]
        keep, by_room = [], {}
        for n in names:
            mod = n.split(" as ")[0].strip()
            if mod in mv:
                room, new = mv[mod]
                alias = n.split(" as ")[1].strip() if " as " in n else (mod if new != mod else "")
                by_room.setdefault(room, []).append(f"{new} as {alias}" if alias and alias != new else new)
            else:
                keep.append(n)
        if not by_room:
            return m.group(0)
        ind = m["indent"]
        lines = [f"{ind}from gpuplanner.engine import {', '.join(keep)}"] if keep else []
        lines += [
            f"{ind}from gpuplanner.engine.{room} import {', '.join(ns)}"
            for room, ns in sorted(by_room.items())
        ]
        return "\n".join(lines)

    return _FROM_ENGINE.sub(repl, text)


def rewrite(text: str, mv: dict[str, tuple[str, str]]) -> str:
    names = "|".join(sorted(map(re.escape, mv), key=len, reverse=True))
    text = _split_from_engine(text, mv)
    text = re.sub(
        rf"(?<![\w.])gpuplanner\.engine\.({names})(?!\w)",
        lambda m: "gpuplanner.engine.{}.{}".format(*mv[m[1]]),
        text,
    )
    text = re.sub(r"(?<![\w/])((?:gpuplanner/)?engine/)checks_\*\.py", r"\1checks/*.py", text)
    return re.sub(
        rf"(?<![\w/])((?:gpuplanner/)?engine/)({names})\.py(?!\w)",
        lambda m: "{}{}/{}.py".format(m[1], *mv[m[2]]),
        text,
    )


def targets() -> list[Path]:
    me = Path(__file__).resolve()
    files: list[Path] = []
    for tree in TREES:
        files += [p for p in (ROOT / tree).rglob("*.py") if p.resolve() != me]
    for extra in EXTRA_FILES:
        p = ROOT / extra
        files += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p] if p.exists() else []
    c = ROOT / CATALOG_COMMENTS
    files += sorted(c.glob("*.yaml")) if c.is_dir() else []
    return [p for p in files if "__pycache__" not in p.parts]


# -- 4. contracts -------------------------------------------------------------------------------------------
def add_contracts() -> bool:
    path = ROOT / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    added = [
        f'\n[[tool.importlinter.contracts]]\nname = "{name}"\n{body}\n'
        for name, body in CONTRACTS
        if f'name = "{name}"' not in text
    ]
    if added:
        path.write_text(text.rstrip("\n") + "\n" + "".join(added), encoding="utf-8")
    return bool(added)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="report files that still use an old path")
    args = ap.parse_args()
    mv = moves()
    if args.check:
        stale = [
            p
            for p in targets()
            if rewrite(p.read_text(encoding="utf-8"), mv) != p.read_text(encoding="utf-8")
        ]
        flat = [f"gpuplanner/engine/{old}.py" for old in mv if (ENGINE / f"{old}.py").exists()]
        for s in [*flat, *(str(p.relative_to(ROOT)) for p in stale)]:
            print(s)
        return 1 if stale or flat else 0
    changed: list[Path] = []
    for p in (ROOT / "gpuplanner").rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        new = absolutize(p, text, mv)
        if new != text:
            p.write_text(new, encoding="utf-8")
    problems = move_files(mv)
    mv = moves()
    for p in targets():
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = rewrite(text, mv)
        if new != text:
            p.write_text(new, encoding="utf-8")
            changed.append(p)
    if add_contracts():
        changed.append(ROOT / "pyproject.toml")
    py = [str(p.relative_to(ROOT)) for p in changed if p.suffix == ".py"]
    py += [str(p.relative_to(ROOT)) for p in ENGINE.glob("*/__init__.py")]
    ruff = shutil.which("ruff")
    if py and ruff:  # the rewritten imports sort differently, and a longer path may need another line break
        subprocess.run([ruff, "check", "--select", "I001", "--fix", "-q", *py], cwd=ROOT, check=False)
        subprocess.run([ruff, "format", "-q", *py], cwd=ROOT, check=False)
    print(f"engine rooms: {len(changed)} file(s) rewritten")
    for s in problems:
        print(f"not moved: {s}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
