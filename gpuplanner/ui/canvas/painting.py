"""Text drawn at a fixed on-screen size inside a scene rectangle (legible at any zoom where it fits)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QTransform

_FONTS: dict[tuple[int, bool], QFont] = {}


def font(px: int, bold: bool = False) -> QFont:
    key = (px, bold)
    if key not in _FONTS:
        f = QFont()
        f.setPixelSize(px)
        f.setBold(bold)
        _FONTS[key] = f
    return _FONTS[key]


@contextmanager
def saved(p: QPainter) -> Iterator[QPainter]:
    """save() … restore() that survives an exception (an unbalanced painter state crashes Qt)."""
    p.save()
    try:
        yield p
    finally:
        p.restore()


@lru_cache(maxsize=50000)
def elided(text: str, px: int, bold: bool, width: int) -> str:
    return QFontMetricsF(font(px, bold)).elidedText(text, Qt.TextElideMode.ElideRight, width)


def device_rect(p: QPainter, rect: QRectF) -> QRectF:
    return p.worldTransform().mapRect(rect)


def draw_lines(
    p: QPainter,
    rect: QRectF,
    lines: list[tuple[str, QColor, bool]],
    px: int = 11,
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
    margin: float = 3.0,
) -> int:
    """Draw ``lines`` (text, colour, bold) top-down in ``rect`` at ``px`` screen pixels (down to 8 px when
    they would not fit), eliding what is too wide and leaving out lines that still do not fit in height.
    Returns how many lines were drawn."""
    dev = device_rect(p, rect)
    if dev.height() < (px + 2) * len(lines):
        px = max(8, min(px, int(dev.height() / len(lines)) - 2))
    line_h = px + 2
    if dev.height() < line_h or dev.width() < 3 * px:
        return 0
    with saved(p):
        p.setWorldTransform(QTransform())
        y = (
            dev.top() + max(0.0, (dev.height() - line_h * len(lines)) / 2)
            if len(lines) == 1
            else dev.top() + 1
        )
        drawn = 0
        for text, color, bold in lines:
            if y + line_h > dev.bottom() + 1:
                break
            p.setFont(font(px, bold))
            p.setPen(color)
            shown = elided(text, px, bold, int(dev.width() - 2 * margin))
            p.drawText(
                QRectF(dev.left() + margin, y, dev.width() - 2 * margin, line_h),
                int(align | Qt.AlignmentFlag.AlignVCenter),
                shown,
            )
            y += line_h
            drawn += 1
    return drawn
