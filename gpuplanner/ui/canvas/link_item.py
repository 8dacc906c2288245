"""The link layer: every link of the project drawn by one graphics item from arrays.

Links are lines between port-group pads (top edge of the lower device's pad → bottom edge of the upper one),
coloured by utilisation bucket; links with an end in a collapsed group are drawn as one line per pair of
ends (a bundle). They are drawn into cached tiles (``tiles.TileCache``), a few paths per
colour bucket and width class; at low zoom, lines closer than a device pixel are merged first, and racks and
devices are drawn as rectangles into the same tiles. Labels ("37 % · 400G") are drawn live, only when zoomed
in, for at most ``MAX_LABELS`` links in view (``link_labels``). Links being dragged are drawn live on top. Hit tests (hover,
click, rubber band) are vectorised over all links.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from pyqtgraph.functions import arrayToQPath
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gpuplanner.model import Project
from gpuplanner.ui import theme
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.geometry import DeviceGeometry
from gpuplanner.ui.canvas.groups import draw_block_texts, draw_blocks
from gpuplanner.ui.canvas.link_labels import paint_labels
from gpuplanner.ui.canvas.painting import saved
from gpuplanner.ui.canvas.segments import bundle_rows, clip_segments, merge_segments
from gpuplanner.ui.canvas.tiles import TileCache

if TYPE_CHECKING:
    from gpuplanner.ui.canvas.groups import GroupBlock  # noqa: F401 (the blocks callback's type)

FRAME_BUDGET_S = 0.008  # tile rendering per frame; the rest of a frame is blits, items and labels
AA_BELOW = 800  # antialias the lines of a tile when it has fewer (antialiased lines cost ~10×)
MERGE_ABOVE = 1500  # merge lines on the same pixels only in busy tiles (np.unique costs ~1 ms)


def speed_text(speed_gbps: float, multiplicity: int) -> str:
    s = f"{speed_gbps / 1000:g}T" if speed_gbps >= 1000 else f"{speed_gbps:g}G"
    return f"{multiplicity}×{s}" if multiplicity > 1 else s


class LinkLayer(QGraphicsItem):
    def __init__(self, overview: lod.OverviewData) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(1)
        self.overview = overview
        self.tiles = TileCache(self._render_tile)
        self.ids: list[str] = []
        self._index: dict[str, int] | None = {}
        self.a = self.b = np.zeros(0, dtype=np.int64)
        self.fa = self.fb = np.zeros(0)
        self.speed = np.zeros(0)
        self.mult = np.zeros(0, dtype=np.int64)
        self.xy = np.zeros((0, 4))
        self.box = np.zeros((0, 4))
        self.mid = np.zeros((0, 2))
        self.util = np.zeros(0)
        self.bucket = np.zeros(0, dtype=np.uint8)
        self.hidden = np.zeros(0, dtype=bool)
        self.phase_off = np.zeros(0, dtype=bool)  # links of later phases than the one shown
        self.group_off = np.zeros(0, dtype=bool)  # links inside a collapsed group
        self.dev_block = np.zeros(0, dtype=np.int64)  # per device row: its collapsed block, or -1
        self.block_xywh = np.zeros((0, 4))
        self.selected: set[str] = set()
        self._bounds = QRectF()
        self._geo_version = 0
        self._util_version = 0  # bumped with new utilisation (the busiest link of a bundle may change)
        # the collapsed groups' blocks, drawn into the tiles (set by the scene)
        self.blocks: Callable[[], Iterable[GroupBlock]] = tuple
        self._drawable: tuple | None = None  # (version, phase_off, group_off, rows, xy, box)
        self.label_font = QFont()  # (link_labels)
        self.label_font.setPointSizeF(8.0)
        self._refresh = QTimer()
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(0)
        self._refresh.timeout.connect(self.update)
        self.after_paint: Callable[[], None] | None = None  # called once after the next paint
        self.complete = False  # the last paint drew every tile it exposed (none left for later frames)

    # -- data -------------------------------------------------------------------------------------------
    @property
    def index(self) -> dict[str, int]:
        """Link id → row (made on first use: the open of a large plan does not need it)."""
        if self._index is None:
            self._index = {i: k for k, i in enumerate(self.ids)}
        return self._index

    def rebuild(self, project: Project, geom: DeviceGeometry, with_links: bool = True) -> None:
        """The link arrays from the project (``with_links`` False: none yet — a large plan's canvas is
        drawn first and its links follow, ``PlannerScene.add_links``)."""
        # the model keeps the links a column at a time (Project.link_columns): no pass over row objects
        ids: Sequence[str] = ()
        ad: Sequence[str] = ()
        bd: Sequence[str] = ()
        ag: Sequence[str] = ()
        bg: Sequence[str] = ()
        speed: Sequence[float] | np.ndarray = ()
        mult: Sequence[int] | np.ndarray = ()
        n = 0
        if with_links:
            cols = project.link_columns()
            n = len(cols)
            ids, ad, bd, ag, bg = cols.id, cols.a_device, cols.b_device, cols.a_group, cols.b_group
            speed, mult = cols.speed_gbps, cols.multiplicity
        prev_ids, prev_util = self.ids, self.util
        self.ids = list(ids)
        self._index = None  # id → row, made when first asked for
        row = geom.index
        self.a = np.fromiter(map(row.__getitem__, ad), np.int64, n)
        self.b = np.fromiter(map(row.__getitem__, bd), np.int64, n)
        # Pad fractions depend on the device model and the port group only: a table per (model, group)
        gcode = {g: k for k, g in enumerate(set(ag) | set(bg))}
        table = np.full((max(1, len(geom.model_groups)), max(1, len(gcode))), 0.5)
        for m, names in enumerate(geom.model_groups):
            for k, name in enumerate(names):
                if name in gcode:
                    table[m, gcode[name]] = (k + 0.5) / len(names)
        ga = np.fromiter(map(gcode.__getitem__, ag), np.int64, n)
        gb = np.fromiter(map(gcode.__getitem__, bg), np.int64, n)
        self.fa = table[geom.model[self.a], ga] if n else np.zeros(0)
        self.fb = table[geom.model[self.b], gb] if n else np.zeros(0)
        self.speed = np.array(speed, dtype=float).reshape(n)
        self.mult = np.array(mult, dtype=np.int64).reshape(n)
        if len(prev_util) == len(prev_ids) and prev_ids == self.ids:
            self.util = prev_util.copy()  # the utilisation shown stays until the next results
        elif len(prev_util) == len(prev_ids) and prev_ids:
            old = dict(zip(prev_ids, prev_util.tolist(), strict=True))
            self.util = np.fromiter((old.get(i, 0.0) for i in self.ids), float, n)
        else:
            self.util = np.zeros(n)
        self.bucket = theme.util_buckets(self.util)
        self.hidden = np.zeros(n, dtype=bool)
        self.phase_off = np.zeros(n, dtype=bool)
        self.group_off = np.zeros(n, dtype=bool)
        self.dev_block = np.full(len(geom.ids), -1, dtype=np.int64)
        if self.selected:
            self.selected &= set(self.ids)
        self.recompute(geom)

    def recompute(self, geom: DeviceGeometry, rows: np.ndarray | None = None) -> None:
        """Endpoint coordinates from the device rectangles (all links, or ``rows``)."""
        a, b = (self.a, self.b) if rows is None else (self.a[rows], self.b[rows])
        fa, fb = (self.fa, self.fb) if rows is None else (self.fa[rows], self.fb[rows])
        cya, cyb = geom.y[a] + geom.h[a] / 2, geom.y[b] + geom.h[b] / 2
        a_above = cya <= cyb
        xy = np.empty((len(a), 4))
        xy[:, 0] = geom.x[a] + geom.w[a] * fa
        xy[:, 1] = np.where(a_above, geom.y[a] + geom.h[a], geom.y[a])
        xy[:, 2] = geom.x[b] + geom.w[b] * fb
        xy[:, 3] = np.where(a_above, geom.y[b], geom.y[b] + geom.h[b])
        if len(self.block_xywh) and len(a):
            self._to_blocks(xy, a, b)
        if rows is None:
            self.xy = xy
        else:
            self.xy[rows] = xy
        self._derive()
        self._update_bounds()

    def set_collapse(self, dev_block: np.ndarray, block_xywh: np.ndarray, geom: DeviceGeometry) -> None:
        """Collapsed groups: ``dev_block`` gives each device row its block (-1 = none), ``block_xywh`` the
        blocks' rectangles. Links inside one block are dropped; links leaving a block start at its edge."""
        self.dev_block = dev_block
        self.block_xywh = block_xywh.reshape(-1, 4)
        ba, bb = dev_block[self.a], dev_block[self.b]
        self.group_off = (ba >= 0) & (ba == bb)
        self.recompute(geom)
        self.invalidate_all()

    def _to_blocks(self, xy: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
        """Move the ends of links at collapsed devices onto their block's edge facing the other end (the
        x kept inside the block, so the links of a block still fan out)."""
        for end, dev, other in ((0, a, 2), (2, b, 0)):
            blk = self.dev_block[dev]
            m = blk >= 0
            if not m.any():
                continue
            bx, by, bw, bh = self.block_xywh[blk[m]].T
            oy = xy[m, other + 1]
            xy[m, end] = np.clip(xy[m, end], bx + 4, bx + bw - 4)
            xy[m, end + 1] = np.where(oy >= by + bh, by + bh, np.where(oy <= by, by, by + bh / 2))

    def _derive(self) -> None:
        """Bounding boxes and midpoints per link, computed once per geometry change (not per tile)."""
        x1, y1, x2, y2 = self.xy.T
        self.box = np.column_stack(
            (np.minimum(x1, x2), np.minimum(y1, y2), np.maximum(x1, x2), np.maximum(y1, y2))
        )
        self.mid = np.column_stack(((x1 + x2) / 2, (y1 + y2) / 2))
        self._geo_version += 1

    def _bundles(self, rows: np.ndarray) -> np.ndarray:
        """Links with an end in a collapsed group are drawn as bundles (``segments.bundle_rows``)."""
        if not len(self.block_xywh):
            return rows
        return bundle_rows(rows, self.a, self.b, self.dev_block, len(self.block_xywh), self.util)

    def drawable(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows that are drawn (not in a later phase, not inside a collapsed group; one per bundle) with
        their ends and boxes, kept until the geometry, the utilisation or those masks change: a tile clips
        these, not every link."""
        d = self._drawable
        version = (self._geo_version, self._util_version)
        if d is None or d[0] != version or d[1] is not self.phase_off or d[2] is not self.group_off:
            off = self.phase_off | self.group_off
            rows = np.flatnonzero(~off) if off.any() else np.arange(len(self.xy))
            rows = self._bundles(rows)
            d = self._drawable = (
                version,
                self.phase_off,
                self.group_off,
                rows,
                self.xy[rows],
                self.box[rows],
            )
        return d[3], d[4], d[5]

    def _update_bounds(self) -> None:
        r = self.overview.bounds()
        if len(self.xy):
            x = self.xy[:, [0, 2]]
            y = self.xy[:, [1, 3]]
            r = r.united(QRectF(x.min(), y.min(), x.max() - x.min(), y.max() - y.min()))
        r = r.adjusted(-200, -200, 200, 200)
        if r != self._bounds:
            self.prepareGeometryChange()
            self._bounds = r

    def rows_of(self, ids: list[str] | set[str]) -> np.ndarray:
        return np.array(sorted(self.index[i] for i in ids if i in self.index), dtype=np.int64)

    def rows_of_devices(self, device_rows: np.ndarray) -> np.ndarray:
        return np.flatnonzero(np.isin(self.a, device_rows) | np.isin(self.b, device_rows))

    def set_util(self, util: np.ndarray) -> np.ndarray:
        """New utilisation per link (layer order); returns the rows whose label or colour changed."""
        util = np.nan_to_num(util.astype(np.float64))
        if util.shape == self.util.shape and np.array_equal(util, self.util):
            return np.zeros(0, dtype=np.int64)  # (an edit of a rack's budget moves no traffic)
        bundles_before = self.drawable()[0] if len(self.block_xywh) else None
        self._util_version += 1
        bucket = theme.util_buckets(util)
        label_changed = np.round(util * 100) != np.round(self.util * 100)
        colour_changed = bucket != self.bucket
        self.util, self.bucket = util, bucket
        if colour_changed.any():
            self.invalidate_rows(np.flatnonzero(colour_changed))
        if bundles_before is not None:  # a bundle now drawn by another of its links: redraw both
            moved = np.setxor1d(bundles_before, self.drawable()[0])
            if len(moved):
                self.invalidate_rows(moved)
        changed = np.flatnonzero(label_changed | colour_changed)
        if len(changed):
            self.update()
        return changed

    # -- queries ----------------------------------------------------------------------------------------
    def label_text(self, link_id: str) -> str:
        i = self.index[link_id]
        return f"{self.util[i] * 100:.0f}% · {speed_text(self.speed[i], int(self.mult[i]))}"

    def color_of(self, link_id: str) -> QColor:
        return theme.bucket_color(int(self.bucket[self.index[link_id]]))

    def bucket_counts(self) -> np.ndarray:
        return np.bincount(self.bucket, minlength=theme.N_BUCKETS)

    def hit(self, pt: QPointF, tol: float) -> str | None:
        """The link nearest to ``pt`` within ``tol`` scene units, or None."""
        if not len(self.ids):
            return None
        x1, y1, x2, y2 = self.xy.T
        dx, dy = x2 - x1, y2 - y1
        ll = dx * dx + dy * dy
        t = np.clip(
            np.divide((pt.x() - x1) * dx + (pt.y() - y1) * dy, ll, out=np.zeros_like(ll), where=ll > 0), 0, 1
        )
        d2 = (x1 + t * dx - pt.x()) ** 2 + (y1 + t * dy - pt.y()) ** 2
        d2[self.phase_off | self.group_off] = np.inf
        i = int(np.argmin(d2))
        return self.ids[i] if d2[i] <= tol * tol else None

    def in_rect(self, rect: QRectF) -> list[str]:
        """Links with both ends inside ``rect``."""
        x1, y1, x2, y2 = self.xy.T
        inside = (x1 >= rect.left()) & (x1 <= rect.right()) & (y1 >= rect.top()) & (y1 <= rect.bottom())
        inside &= (x2 >= rect.left()) & (x2 <= rect.right()) & (y2 >= rect.top()) & (y2 <= rect.bottom())
        inside &= ~(self.phase_off | self.group_off)
        return [self.ids[i] for i in np.flatnonzero(inside)]

    def fit_rect(self) -> QRectF:
        return self._bounds.adjusted(150, 150, -150, -150)

    # -- cache invalidation -----------------------------------------------------------------------------
    def invalidate_rows(self, rows: np.ndarray) -> None:
        if not len(rows) or not len(self.tiles):
            self.update()
            return
        lo_x, lo_y, hi_x, hi_y = self.box[rows].T

        def touches(r: QRectF) -> bool:
            m = (
                (hi_x >= r.left() - 2)
                & (lo_x <= r.right() + 2)
                & (hi_y >= r.top() - 2)
                & (lo_y <= r.bottom() + 2)
            )
            return bool(m.any())

        self.tiles.invalidate_where(touches)
        self.update()

    def invalidate_rects(self, rects: list[QRectF]) -> None:
        self.tiles.invalidate(rects)
        self.update()

    def invalidate_all(self) -> None:
        self.tiles.clear()
        self.update()

    def set_hidden(self, rows: np.ndarray | None) -> None:
        """Take ``rows`` out of the tiles (they are drawn live while dragged); None puts all back."""
        before = np.flatnonzero(self.hidden)
        self.hidden[:] = False
        if rows is not None and len(rows):
            self.hidden[rows] = True
        self.invalidate_rows(np.union1d(before, rows if rows is not None else before))

    # -- painting ---------------------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    def shape(self) -> QPainterPath:
        """Empty: the layer is never "under the mouse" (hits go through ``hit``), so rubber bands start."""
        return QPainterPath()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = p.worldTransform().m11()
        exposed = option.exposedRect
        self.complete = self.tiles.paint(p, exposed, scale, FRAME_BUDGET_S)
        if not self.complete:  # (tiles left for the next frames: the paint ends within its budget)
            self._refresh.start()
        if self.hidden.any():
            self._paint_rows(p, np.flatnonzero(self.hidden), scale, antialias=True)
        if self.selected:
            self._paint_selected(p)
        with saved(p):
            draw_block_texts(p, self.blocks(), exposed, scale)
        if scale >= lod.LABEL_SCALE:
            paint_labels(p, self, exposed)
        if self.after_paint is not None:  # (the links of a large plan, once its canvas is on screen)
            QTimer.singleShot(0, self.after_paint)
            self.after_paint = None

    def _render_tile(self, p: QPainter, rect: QRectF, scale: float) -> None:
        overview = scale < lod.OVERVIEW_BELOW
        if len(self.ids):
            pad = 4 / scale
            box = rect.adjusted(-pad, -pad, pad, pad)
            cand, cxy, cbox = self.drawable()
            sub, xy = clip_segments(cxy, box, ~self.hidden[cand], cbox)
            rows = cand[sub]
            if len(rows) > MERGE_ABOVE:
                rows, xy = merge_segments(rows, xy, box, scale, self.bucket, self.width_class(rows))
            if len(rows):
                self._stroke(p, rows, xy, scale, antialias=bool(scale >= 0.5 and len(rows) < AA_BELOW))
        if overview:  # the same stacking as the items: links, then racks, then devices
            self.overview.paint_racks(p, rect, scale)
            self.overview.paint_devices(p, rect, scale)
        draw_blocks(p, self.blocks(), rect)  # collapsed groups, above everything (as their z says)

    def render_overview(self, p: QPainter, rect: QRectF, scale: float) -> None:
        """The whole of ``rect`` as the overview draws it (links, racks, devices), for the minimap."""
        self._render_tile(p, rect, min(scale, lod.OVERVIEW_BELOW * 0.99))

    def width_class(self, rows: np.ndarray) -> np.ndarray:
        """0: one cable, 1: two or three, 2: four or more (drawn wider)."""
        return np.minimum(np.log2(np.maximum(self.mult[rows], 1)).astype(np.int64), 2)

    def _paint_rows(self, p: QPainter, rows: np.ndarray, scale: float, antialias: bool) -> None:
        if len(rows):
            self._stroke(p, rows, self.xy[rows], scale, antialias)

    def _stroke(self, p: QPainter, rows: np.ndarray, xy: np.ndarray, scale: float, antialias: bool) -> None:
        """A few paths: one per utilisation bucket (worst drawn last, on top) and width class."""
        with saved(p):
            p.setRenderHint(QPainter.RenderHint.Antialiasing, antialias)
            p.setBrush(Qt.BrushStyle.NoBrush)
            wide = scale >= lod.OVERVIEW_BELOW
            width_class = self.width_class(rows) if wide else np.zeros(len(rows), dtype=np.int64)
            buckets = self.bucket[rows]
            for bucket in range(theme.N_BUCKETS):
                in_bucket = buckets == bucket
                if not in_bucket.any():
                    continue
                for wc in range(3):
                    sel = in_bucket & (width_class == wc)
                    if not sel.any():
                        continue
                    pen = QPen(theme.bucket_color(bucket), 1.0 + 0.6 * wc)
                    pen.setCosmetic(True)
                    p.setPen(pen)
                    part = xy[sel]
                    p.drawPath(
                        arrayToQPath(part[:, [0, 2]].ravel(), part[:, [1, 3]].ravel(), connect="pairs")
                    )

    def _paint_selected(self, p: QPainter) -> None:
        rows = self.rows_of(self.selected)
        if not len(rows):
            return
        with saved(p):
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            halo = QPen(theme.SELECTION, 4.0)
            halo.setCosmetic(True)
            p.setPen(halo)
            xy = self.xy[rows]
            p.drawPath(arrayToQPath(xy[:, [0, 2]].ravel(), xy[:, [1, 3]].ravel(), connect="pairs"))
        self._paint_rows(p, rows, 1.0, antialias=True)
