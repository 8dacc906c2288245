"""Renders resources/icons/gpuplanner.svg to the PNG and ICO files the app and the installers use.

    python packaging/make_icons.py            # writes resources/icons/gpuplanner-{16,32,48,64,128,256}.png
                                              # and gpuplanner.ico (needs Pillow, a dependency already)

Rendering uses Qt's QSvgRenderer (PySide6-Essentials has QtSvg), offscreen, so it needs no display. macOS wants
an ``.icns``: ``iconutil`` makes one from these PNGs on a Mac (see packaging/README.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt  # noqa: E402 (the platform must be chosen before Qt loads)
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SVG = ICONS / "gpuplanner.svg"
PNG_SIZES = (16, 32, 48, 64, 128, 256)


def render_png(renderer: QSvgRenderer, size: int, out: Path) -> None:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    if not image.save(str(out), "PNG"):
        raise OSError(f"cannot write {out}")


def write_ico(pngs: dict[int, Path], out: Path) -> bool:
    """A multi-size Windows icon from the rendered PNGs; False when Pillow is missing."""
    try:
        from PIL import Image
    except ImportError:
        return False
    biggest = Image.open(pngs[max(pngs)])
    sizes = [(s, s) for s in sorted(pngs) if s <= 256]
    biggest.save(out, format="ICO", sizes=sizes)
    return True


def main() -> int:
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"make_icons: cannot read {SVG}", file=sys.stderr)
        return 2
    pngs = {}
    for size in PNG_SIZES:
        pngs[size] = ICONS / f"gpuplanner-{size}.png"
        render_png(renderer, size, pngs[size])
        print(f"wrote {pngs[size].relative_to(ICONS.parent.parent)}")
    ico = ICONS / "gpuplanner.ico"
    if write_ico(pngs, ico):
        print(f"wrote {ico.relative_to(ICONS.parent.parent)}")
    else:
        print("Pillow is missing: no gpuplanner.ico written (pip install pillow)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
