"""Regenerates the proposal's page images in docs/report/: a 32-node plan, a 1,024-node plan and a GB200 NVL72
plan, in English and Chinese, every page as a small PNG (``pdftoppm -png -r 60``, Debian poppler-utils, then 64 colours with Pillow).

The plans are made the way users make them, with the command line (``gpuplanner generate`` on the presets and
a GB200 template run), then ``gpuplanner report``. Look at every image after running it.

    python tools/render_report_pages.py                 # all plans, both languages
    python tools/render_report_pages.py --plans gb200 --langs zh
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "report"
PLANS: dict[str, tuple[str, ...]] = {
    "plan32": ("ib-su-32-node", "--name", "32-node InfiniBand SU"),
    "plan1024": ("fat-tree-1024-node", "--name", "1,024-node 3-tier fat tree"),
    "gb200": (
        "rail-leaf-spine", "--server", "nvidia-gb200-nvl72", "--servers", "8", "--su-size", "4",
        "--name", "GB200 NVL72 × 8",
    ),
}  # fmt: skip
LANGS = ("en", "zh")
DPI = "60"
COLOURS = 64


def cli(*args: str) -> None:
    r = subprocess.run([sys.executable, "-m", "gpuplanner", *args], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"gpuplanner {' '.join(args)}: {r.stderr.strip() or r.stdout.strip()}")


def render(plan: str, lang: str, work: Path, out: Path) -> list[Path]:
    project = work / f"{plan}.gpuplan"
    if not project.exists():
        cli("generate", *PLANS[plan], "-o", str(project), "--force")
    pdf = work / f"{plan}-{lang}.pdf"
    cli("report", str(project), "-o", str(pdf), "--lang", lang)
    for old in out.glob(f"{plan}-{lang}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", DPI, str(pdf), str(out / f"{plan}-{lang}")], check=True)
    pages = sorted(out.glob(f"{plan}-{lang}-*.png"))
    for png in pages:  # 64 colours: a third of the size, the text still sharp at 60 dpi
        with Image.open(png) as im:
            small = im.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
        small.save(png, optimize=True)
    return pages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plans", nargs="+", choices=sorted(PLANS), default=list(PLANS))
    ap.add_argument("--langs", nargs="+", choices=LANGS, default=list(LANGS))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if shutil.which("pdftoppm") is None:
        print("pdftoppm is missing: apt-get install -y poppler-utils", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for plan in args.plans:
            for lang in args.langs:
                pages = render(plan, lang, Path(tmp), args.out)
                size_kb = sum(p.stat().st_size for p in pages) / 1024
                print(f"{plan} {lang}: {len(pages)} pages, {size_kb:,.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
