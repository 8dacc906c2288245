"""PNG of a reportlab Drawing with Pillow (reportlab's own bitmap renderer needs a C backend that is not
installed here). Handles what our drawings use: groups with affine transforms, rectangles, lines, paths with
Bézier curves, polygons and strings (any rotation); drawn at twice the size and scaled down for smooth edges."""

from __future__ import annotations

import math
import re
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.graphics import shapes
from reportlab.lib import colors

from gpuplanner.reports.fonts import font_path

SUPERSAMPLE = 2
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _rgba(c) -> tuple[int, int, int, int] | None:
    if c is None:
        return None
    if not isinstance(c, colors.Color):
        c = colors.toColor(c)
    r, g, b = c.rgb()
    return int(r * 255), int(g * 255), int(b * 255), int(round(getattr(c, "alpha", 1) * 255))


class _Painter:
    def __init__(self, drawing: shapes.Drawing, scale: float) -> None:
        self.s = scale * SUPERSAMPLE
        self.h = drawing.height
        self.img = Image.new(
            "RGBA", (max(1, int(drawing.width * self.s)), max(1, int(drawing.height * self.s))), "white"
        )
        self.draw = ImageDraw.Draw(self.img)
        self.fonts: dict[int, ImageFont.FreeTypeFont] = {}

    def pt(self, m: Matrix, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = m
        return (a * x + c * y + e) * self.s, (self.h - (b * x + d * y + f)) * self.s

    def width(self, m: Matrix, w: float) -> int:
        return max(1, int(round(w * math.hypot(m[0], m[1]) * self.s)))

    def node(self, n, m: Matrix) -> None:
        if isinstance(n, shapes.Group):
            mm = _mul(m, tuple(n.transform)) if getattr(n, "transform", None) else m
            for child in n.contents:
                self.node(child, mm)
        elif isinstance(n, shapes.Rect):
            pts = [
                self.pt(m, n.x, n.y),
                self.pt(m, n.x + n.width, n.y),
                self.pt(m, n.x + n.width, n.y + n.height),
                self.pt(m, n.x, n.y + n.height),
            ]
            self.poly(pts, n, m, closed=True)
        elif isinstance(n, shapes.Line):
            col = _rgba(n.strokeColor)
            if col:
                self.draw.line(
                    [self.pt(m, n.x1, n.y1), self.pt(m, n.x2, n.y2)],
                    fill=col,
                    width=self.width(m, n.strokeWidth),
                )
        elif isinstance(n, shapes.String):
            self.text(n, m)
        elif isinstance(n, shapes.Path):
            self.path(n, m)
        elif isinstance(n, shapes.PolyLine | shapes.Polygon):
            p = n.points
            pts = [self.pt(m, p[i], p[i + 1]) for i in range(0, len(p) - 1, 2)]
            self.poly(pts, n, m, closed=isinstance(n, shapes.Polygon))

    def poly(self, pts, n, m: Matrix, *, closed: bool) -> None:
        fill = _rgba(getattr(n, "fillColor", None)) if closed else None
        stroke = _rgba(getattr(n, "strokeColor", None))
        if fill and len(pts) > 2:
            self.draw.polygon(pts, fill=fill)
        if stroke and getattr(n, "strokeWidth", 0):
            self.draw.line([*pts, pts[0]] if closed else pts, fill=stroke, width=self.width(m, n.strokeWidth))

    def path(self, n: shapes.Path, m: Matrix) -> None:
        pts: list[tuple[float, float]] = []
        it = iter(n.points)
        cur = (0.0, 0.0)
        for op in n.operators:
            if op in (0, 1):  # moveTo, lineTo
                cur = (next(it), next(it))
                pts.append(self.pt(m, *cur))
            elif op == 2:  # curveTo: flatten the cubic Bézier
                c1, c2, end = (next(it), next(it)), (next(it), next(it)), (next(it), next(it))
                for k in range(1, 17):
                    t = k / 16
                    x = (
                        (1 - t) ** 3 * cur[0]
                        + 3 * (1 - t) ** 2 * t * c1[0]
                        + 3 * (1 - t) * t * t * c2[0]
                        + t**3 * end[0]
                    )
                    y = (
                        (1 - t) ** 3 * cur[1]
                        + 3 * (1 - t) ** 2 * t * c1[1]
                        + 3 * (1 - t) * t * t * c2[1]
                        + t**3 * end[1]
                    )
                    pts.append(self.pt(m, x, y))
                cur = end
        self.poly(pts, n, m, closed=n.fillColor is not None)

    def text(self, n: shapes.String, m: Matrix) -> None:
        size = max(1, int(round(n.fontSize * math.hypot(m[0], m[1]) * self.s)))
        font = self.fonts.get(size) or self.fonts.setdefault(
            size, ImageFont.truetype(str(font_path()), size, index=0)
        )
        text = _CONTROL.sub(
            " ", n.text
        )  # tabs/newlines in names: one line (Pillow's raqm layout fails on them)
        w = font.getlength(text)
        asc, desc = font.getmetrics()
        tmp = Image.new("RGBA", (int(w) + 4, asc + desc + 4), (255, 255, 255, 0))
        ImageDraw.Draw(tmp).text(
            (2, asc + 2), text, font=font, fill=_rgba(n.fillColor) or (0, 0, 0, 255), anchor="ls"
        )
        shift = {"start": 0.0, "middle": w / 2, "end": w}.get(n.textAnchor, 0.0)
        angle = math.degrees(math.atan2(m[1], m[0]))
        ax, ay = 2 + shift, asc + 2.0
        if abs(angle) > 0.01:
            cx, cy = tmp.width / 2, tmp.height / 2
            tmp = tmp.rotate(angle, expand=True, resample=Image.BICUBIC)
            t = math.radians(angle)
            dx, dy = ax - cx, ay - cy
            ax = tmp.width / 2 + dx * math.cos(t) + dy * math.sin(t)
            ay = tmp.height / 2 - dx * math.sin(t) + dy * math.cos(t)
        x, y = self.pt(m, n.x, n.y)
        self.img.paste(tmp, (int(round(x - ax)), int(round(y - ay))), tmp)


def drawing_to_png(drawing: shapes.Drawing, path: str | Path, dpi: float = 150.0) -> Path:
    p = _Painter(drawing, dpi / 72.0)
    for n in drawing.contents:
        p.node(n, IDENTITY)
    img = p.img.resize(
        (max(1, p.img.width // SUPERSAMPLE), max(1, p.img.height // SUPERSAMPLE)), Image.LANCZOS
    )
    img.convert("RGB").save(str(path), "PNG")
    return Path(path)
