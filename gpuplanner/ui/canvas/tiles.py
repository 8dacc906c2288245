"""A tile cache for drawing tens of thousands of lines fast: what is drawn once is blitted afterwards.

The scene is cut into square tiles of ``TILE_PX`` device pixels at a zoom level quantised to 1/8 octave.
A frame blits the cached tiles (scaled by at most ±4.5 %), renders the missing ones within a time budget,
and meanwhile shows the nearest other level's tiles so that panning and zooming never wait for a full
redraw. Edits invalidate only the tiles whose scene rectangle they touch.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QRegion

TILE_PX = 256
MAX_TILES = 320  # 256 × 256 × 4 bytes = 256 KiB each: at most ~80 MiB
LEVELS_PER_OCTAVE = 8

RenderFn = Callable[[QPainter, QRectF, float], None]
TileKey = tuple[int, int, int]  # (level, ix, iy)


def level_of(scale: float) -> int:
    return round(math.log2(max(scale, 1e-6)) * LEVELS_PER_OCTAVE)


def scale_of(level: int) -> float:
    return 2.0 ** (level / LEVELS_PER_OCTAVE)


def tile_rect(key: TileKey) -> QRectF:
    level, ix, iy = key
    size = TILE_PX / scale_of(level)
    return QRectF(ix * size, iy * size, size, size)


class TileCache:
    def __init__(self, render: RenderFn, *, max_tiles: int = MAX_TILES) -> None:
        self._render = render
        self._tiles: OrderedDict[TileKey, QImage] = OrderedDict()
        self._rects: dict[TileKey, QRectF] = {}
        self.max_tiles = max_tiles
        self.rendered = 0  # tiles rendered since creation (for tests and benchmarks)

    def __len__(self) -> int:
        return len(self._tiles)

    def clear(self) -> None:
        self._tiles.clear()
        self._rects.clear()

    def invalidate(self, rects: list[QRectF]) -> None:
        """Drop every cached tile that intersects one of ``rects`` (scene coordinates)."""
        if not rects:
            return
        for key in [k for k in self._tiles if any(self._rects[k].intersects(r) for r in rects)]:
            del self._tiles[key]
            del self._rects[key]

    def invalidate_where(self, touches: Callable[[QRectF], bool]) -> None:
        """Drop the cached tiles for which ``touches(tile scene rect)`` is true."""
        for key in [k for k in self._tiles if touches(self._rects[k])]:
            del self._tiles[key]
            del self._rects[key]

    def _render_tile(self, key: TileKey) -> QImage:
        rect = tile_rect(key)
        scale = scale_of(key[0])
        img = QImage(TILE_PX, TILE_PX, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.scale(scale, scale)
        p.translate(-rect.x(), -rect.y())
        p.setClipRect(rect)
        try:
            self._render(p, rect, scale)
        finally:
            p.end()  # an exception must not leave the image being painted (Qt aborts on that)
        self.rendered += 1
        return img

    def _store(self, key: TileKey, img: QImage) -> None:
        self._tiles[key] = img
        self._rects[key] = tile_rect(key)
        self._tiles.move_to_end(key)
        while len(self._tiles) > self.max_tiles:
            old, _ = self._tiles.popitem(last=False)
            self._rects.pop(old, None)

    def paint(self, painter: QPainter, exposed: QRectF, scale: float, budget_s: float = 0.02) -> bool:
        """Draw the exposed scene rectangle; True when every tile was ready or rendered in the budget."""
        level = level_of(scale)
        size = TILE_PX / scale_of(level)
        x0, x1 = math.floor(exposed.left() / size), math.floor(exposed.right() / size)
        y0, y1 = math.floor(exposed.top() / size), math.floor(exposed.bottom() / size)
        start = time.perf_counter()
        ready: list[TileKey] = []
        missing: list[TileKey] = []
        for iy in range(y0, y1 + 1):
            for ix in range(x0, x1 + 1):
                key = (level, ix, iy)
                if key not in self._tiles and time.perf_counter() - start < budget_s:
                    self._store(key, self._render_tile(key))
                if key in self._tiles:
                    self._tiles.move_to_end(key)  # in use: not the one evicted by the next render
                    ready.append(key)
                else:
                    missing.append(key)
        if missing:
            self._paint_fallback(painter, level, missing)
        for key in ready:
            img = self._tiles.get(key)
            if img is not None:
                painter.drawImage(self._rects[key], img)
        return not missing

    def _paint_fallback(self, painter: QPainter, level: int, missing: list[TileKey]) -> None:
        """Fill the tiles not rendered yet with the nearest other level's tiles (blurred, but not empty)."""
        area = QRectF()
        clip = QRegion()
        for key in missing:
            r = tile_rect(key)
            area = area.united(r)
            clip += painter.transform().mapRect(r).toAlignedRect()
        levels = sorted({k[0] for k in self._tiles if k[0] != level}, key=lambda lv: abs(lv - level))
        for lv in levels:
            hits = [k for k in self._tiles if k[0] == lv and self._rects[k].intersects(area)]
            if hits:
                painter.save()
                painter.setClipRegion(
                    painter.transform().inverted()[0].map(clip), Qt.ClipOperation.IntersectClip
                )
                for k in hits:
                    painter.drawImage(self._rects[k], self._tiles[k])
                painter.restore()
                return
