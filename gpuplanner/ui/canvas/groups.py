"""Semantic zoom: groups of the plan (a scalable unit or pod — the devices' ``group`` label — and a row of
racks) that collapse into one block showing their GPUs, kW, busiest uplink and findings.

A collapsed group hides its racks and devices (items and overview rectangles), drops the links inside it
from the link layer and draws the links that leave it from the block's edge. The block is one graphics
item per collapsed group, drawn into the link layer's cached tiles (``draw_blocks``; a 16k plan has 64
scalable units); double-clicking it expands the group again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gpuplanner.engine.analysis import Results
from gpuplanner.model import Project
from gpuplanner.ui import fmt, theme
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, DeviceGeometry, rack_frames
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.plurals import counts

BLOCK_PAD = 12.0


TIER_GROUP_MIN = 64  # unlabelled devices of one role: a tier group from this many on


@dataclass
class Group:
    key: str  # "su:su3", "row:B" or "tier:core"
    kind: str  # su | row | tier (the devices of one role that carry no group label, e.g. core switches)
    label: str
    device_ids: list[str]
    rack_ids: list[str]
    has_gpus: bool = False


def build_groups(project: Project) -> dict[str, Group]:
    """Every device-group label (scalable units, pods, leaf groups), every row of racks, and a tier group
    per role for at least ``TIER_GROUP_MIN`` devices without a label (a 131k plan's 2,048 core switches).
    A rack belongs to a device group when all the devices in it carry that group's label (tier groups:
    that role and no label)."""
    out: dict[str, Group] = {}
    by_label: dict[str, list[str]] = {}
    rack_labels: dict[str, set[str]] = {}
    gpu_labels: set[str] = set()
    unlabelled: dict[str, list[str]] = {}  # role → devices without a group label
    for d in project.devices.values():
        if d.group:
            by_label.setdefault(d.group, []).append(d.id)
            if d.role == "compute":
                gpu_labels.add(d.group)
        else:
            unlabelled.setdefault(d.role, []).append(d.id)
        if d.rack_id:
            rack_labels.setdefault(d.rack_id, set()).add(d.group or f"\0{d.role}")
    racks_of: dict[str, list[str]] = {}  # label → the racks whose devices all carry it
    for r, labels in rack_labels.items():
        if len(labels) == 1 and r in project.racks:
            racks_of.setdefault(next(iter(labels)), []).append(r)
    for label, ids in sorted(by_label.items(), key=lambda kv: _natural(kv[0])):
        racks = racks_of.get(label, [])
        out[f"su:{label}"] = Group(f"su:{label}", "su", label, ids, sorted(racks), label in gpu_labels)
    for role, ids in unlabelled.items():
        if len(ids) >= TIER_GROUP_MIN:
            racks = sorted(racks_of.get(f"\0{role}", []))
            out[f"tier:{role}"] = Group(f"tier:{role}", "tier", role, ids, racks, role == "compute")
    by_row: dict[str, list[str]] = {}
    for r in project.racks.values():
        by_row.setdefault(r.row, []).append(r.id)
    in_rack: dict[str, list[str]] = {}
    for d in project.devices.values():
        if d.rack_id:
            in_rack.setdefault(d.rack_id, []).append(d.id)
    for row, rids in sorted(by_row.items(), key=lambda kv: _natural(kv[0])):
        devs = [d for r in rids for d in in_rack.get(r, [])]
        has_gpus = any(project.devices[d].role == "compute" for d in devs)
        out[f"row:{row}"] = Group(f"row:{row}", "row", row, devs, sorted(rids), has_gpus)
    return out


def _natural(label: str) -> tuple:
    """ "su2" before "su10"."""
    head = label.rstrip("0123456789")
    tail = label[len(head) :]
    return (head, int(tail) if tail else -1, label)


def block_rect(project: Project, geom: DeviceGeometry, group: Group) -> QRectF:
    """The rectangle the group's racks (with headers) cover; a group without racks of its own: its devices.
    (A scalable unit's leaf switches in a tier above the racks are hidden with it and their links start at
    the block, but they do not stretch the block over the tier.)"""
    boxes = []
    rows = np.array([geom.index[i] for i in group.device_ids if i in geom.index], dtype=np.int64)
    if len(rows) and not group.rack_ids:
        boxes.append(
            (
                geom.x[rows].min(),
                geom.y[rows].min(),
                (geom.x + geom.w)[rows].max(),
                (geom.y + geom.h)[rows].max(),
            )
        )
    if group.rack_ids:
        f = rack_frames(project, map(project.racks.__getitem__, group.rack_ids))
        boxes.append(
            (
                f[:, 0].min(),
                (f[:, 1] - RACK_HEADER_H).min(),
                (f[:, 0] + f[:, 2]).max(),
                (f[:, 1] + f[:, 3]).max(),
            )
        )
    if not boxes:
        return QRectF()
    a = np.array(boxes)
    return QRectF(a[:, 0].min(), a[:, 1].min(), a[:, 2].max() - a[:, 0].min(), a[:, 3].max() - a[:, 1].min())


@dataclass
class BlockFigures:
    gpus: int = 0
    kw: float = float("nan")
    uplink_util: float = float("nan")
    findings: int = 0
    worst: str = ""  # error | warning | info | ""


class BlockIndex:
    """Which collapsed group (block number) holds each rack and device id, and each compiled device row —
    kept while the collapsed groups and the compiled device order stay (an edit of a rack's budget or of
    the workload changes neither: the block figures are then array sums, not 26,624 lookups)."""

    def __init__(self, groups: list[Group]) -> None:
        self.groups = groups
        self.owner: dict[str, int] = {}
        for k, g in enumerate(groups):
            self.owner.update(dict.fromkeys(g.device_ids, k))
            self.owner.update(dict.fromkeys(g.rack_ids, k))
        self._ids: list[str] | None = None
        self._block_of_row = np.zeros(0, dtype=np.int64)

    def block_of_row(self, ids: list[str], row: dict[str, int]) -> np.ndarray:
        """Per compiled device row (``ids``, ``row``: id → row): its block, -1 outside every block."""
        if self._ids is not ids and self._ids != ids:
            blk = np.full(len(ids), -1, dtype=np.int64)
            for k, g in enumerate(self.groups):
                rows = [row[i] for i in g.device_ids if i in row]
                blk[rows] = k
            self._ids, self._block_of_row = ids, blk
        return self._block_of_row


def block_figures(
    project: Project,
    res: Results | None,
    groups: list[Group],
    link_ends: tuple[np.ndarray, np.ndarray],
    link_row: Callable[[str], int | None],
    link_util: np.ndarray,
    index: BlockIndex | None = None,
) -> list[BlockFigures]:
    """Each collapsed group's totals: GPUs, kW at load, the busiest link leaving it, findings naming its
    racks, devices or inside links. ``link_ends`` are the blocks (-1 = none) of each link's two ends, in
    the link layer's order (``link_row``: id → row or None; ``link_util``). ``index``: the groups'
    ``BlockIndex``, kept by the caller between results (made here when not given)."""
    if index is None or index.groups is not groups:
        index = BlockIndex(groups)
    figs = [BlockFigures() for _ in groups]
    ba, bb = link_ends
    best = np.full(len(groups), -1.0)
    cross = ba != bb
    for side in (ba, bb):
        m = cross & (side >= 0)
        np.maximum.at(best, side[m], np.nan_to_num(link_util[m]))
    for k in np.flatnonzero(best >= 0).tolist():
        figs[k].uplink_util = float(best[k])
    owner = index.owner

    def owner_of(item_id: str) -> int | None:
        k = owner.get(item_id)
        if k is None:  # a link inside one block? (looked up per finding item, not made for every link)
            row = link_row(item_id)
            if row is not None and ba[row] >= 0 and not cross[row]:
                k = int(ba[row])
        return k

    if res is not None:
        c = res.compiled
        blk = index.block_of_row(c.devices.ids, c.devices.row)
        inside = blk >= 0
        n = len(groups)
        gpus = np.bincount(blk[inside], weights=c.devices.gpu_count[inside], minlength=n)
        watts = np.bincount(blk[inside], weights=res.power.device_load_w[inside], minlength=n)
        for k, f in enumerate(figs):
            f.gpus = int(round(gpus[k]))
            f.kw = float(watts[k]) / 1000.0
        order = {"error": 0, "warning": 1, "info": 2}
        for fd in res.findings:
            ks = set(map(owner.get, fd.items))  # (a finding may name thousands of items)
            if None in ks:
                ks.discard(None)
                ks.update(owner_of(i) for i in fd.items if i not in owner)
                ks.discard(None)
            for k in ks:
                f = figs[k]
                f.findings += 1
                if not f.worst or order.get(fd.severity, 3) < order.get(f.worst, 3):
                    f.worst = fd.severity
    else:  # (the first analysis is under way: GPUs from the catalog, counted per device model)
        devs, entries = project.devices, project.catalog.entries
        per_type: dict[str, int] = {}
        for k, g in enumerate(groups):
            types = Counter(map(attrgetter("type_id"), map(devs.__getitem__, g.device_ids)))
            for t, n in types.items():
                if t not in per_type:
                    per_type[t] = int(getattr(entries.get(t), "gpu_count", 0) or 0)
                figs[k].gpus += n * per_type[t]
    return figs


def figures_key(f: BlockFigures) -> tuple:
    """What the block's text is made of (NaN as None: NaN ≠ NaN would make every block look changed)."""
    return (
        f.gpus,
        f.kw if f.kw == f.kw else None,
        f.uplink_util if f.uplink_util == f.uplink_util else None,
        f.findings,
        f.worst,
    )


def block_lines(group: Group, f: BlockFigures) -> list[str]:
    """The block's text: its name, then GPUs, kW, busiest uplink and findings (locale numbers, plurals)."""
    if group.kind == "su":
        title = translate("groups", "Group {name}").format(name=group.label)
    elif group.kind == "tier":
        title = translate("groups", "Group {name}").format(name=theme.role_name(group.label))
    else:
        title = translate("groups", "Row {name}").format(name=group.label)
    n_racks = len(group.rack_ids)
    lines = [title]
    if group.kind == "row":
        lines.append(counts().racks(n_racks))
    lines.append(counts().gpus(int(f.gpus)))
    if np.isfinite(f.kw):
        lines.append(translate("groups", "{kw} kW at load").format(kw=fmt.number(f.kw, 1)))
    if np.isfinite(f.uplink_util):
        lines.append(
            translate("groups", "busiest uplink {p}").format(
                p=fmt.percent(f.uplink_util, 1 if f.uplink_util < 0.1 else 0)
            )
        )
    lines.append(counts().findings(int(f.findings)))
    return lines


SEVERITY_COLORS = {"error": QColor(200, 40, 40), "warning": QColor(200, 130, 0)}


class GroupBlock(QGraphicsItem):
    """A collapsed group: a block with its figures; double-click (handled by the view) expands it.

    The item paints nothing itself: the link layer draws the blocks into its cached tiles (``draw``), so
    that a frame of a 131k plan opened collapsed blits 577 blocks instead of laying out their text."""

    def __init__(self, key: str, rect: QRectF) -> None:
        super().__init__()
        self.key = key
        self._rect = rect
        self._lines: list[str] | None = []
        self._make_lines: Callable[[], list[str]] | None = None
        self.worst = ""
        self.figures: tuple | None = None  # ``figures_key`` of the figures the text was made from
        self._layout: tuple[tuple[float, float, float], tuple[float, list[str]]] | None = None
        self.setZValue(2.5)  # above racks and devices
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # the view handles clicks
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)

    def set_rect(self, rect: QRectF) -> None:
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self._layout = None

    def set_text(self, lines: list[str], worst: str) -> bool:
        """Returns True when the text or the edge colour changed (the tiles under the block are stale)."""
        if lines != self.lines or worst != self.worst:
            self._lines, self._make_lines, self.worst = lines, None, worst
            self._layout = None
            return True
        return False

    def set_figures(self, make_lines: Callable[[], list[str]], worst: str) -> bool:
        """New figures whose text is made when first needed (a block in view is drawn; of a 131k plan's 577
        blocks a frame shows a few dozen). Returns True when the edge colour changed: the tiles draw the
        edge, the text is drawn live."""
        self._lines, self._make_lines, self._layout = None, make_lines, None
        changed = worst != self.worst
        self.worst = worst
        return changed

    @property
    def lines(self) -> list[str]:
        """The block's text: its name, then its figures (``block_lines``)."""
        if self._lines is None:
            self._lines = self._make_lines() if self._make_lines is not None else []
        return self._lines

    def rect(self) -> QRectF:
        return self._rect

    def _text_layout(self, max_px: float) -> tuple[float, list[str]]:
        """``text_layout`` for this block at this zoom, kept until the text, rectangle or zoom changes
        (a 131k plan paints 576 blocks a frame)."""
        key = (self._rect.width(), self._rect.height(), max_px)
        if self._layout is None or self._layout[0] != key:
            self._layout = (key, text_layout(self.lines, key[0], key[1], max_px))
        return self._layout[1]

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Not called (ItemHasNoContents): the link layer's tiles draw the block (``draw_blocks``)."""

    def edge_color(self) -> QColor:
        return SEVERITY_COLORS.get(self.worst, theme.RACK_STATUS_COLORS[0])

    def draw_text(self, p: QPainter, scale: float, clip: QRectF) -> bool:
        """The figures at a readable size; nothing (False) when the block is too small on screen, or when
        the text's area misses ``clip``."""
        r = self._rect
        if not (self._lines or self._make_lines is not None) or scale <= 0:
            return False
        # too small for any text at this zoom (the title and one line of figures at least): known before the
        # text is made, so a zoomed-out frame makes no block's text
        if min(14.0, r.height() * scale / (1.25 * 2 + 0.6)) < 5 or not self.lines:
            return False
        px, rows = self._text_layout(14.0 / scale)
        if px * scale < 5:
            return False
        wide = max(len(t) * (2 if max(t, default=" ") > "\u2e80" else 1) for t in rows)
        # (a generous width: this only culls, the text itself is laid out by Qt in the block)
        area = QRectF(
            r.left(), r.top(), min(r.width(), px * (CHAR_W * 1.5 * wide + 2)), px * (0.6 + 1.25 * len(rows))
        )
        if not area.intersects(clip):
            return False
        font = QFont()
        font.setPixelSize(max(1, int(px)))
        p.setPen(QColor(20, 24, 32))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for k, text in enumerate(rows):
            font.setBold(k == 0)
            p.setFont(font)
            box = QRectF(r.left() + px * 0.5, r.top() + px * (0.3 + 1.25 * k), r.width() - px, px * 1.25)
            p.drawText(box, flags, text)
        return True


BLOCK_FILL = QColor(232, 238, 248)


def draw_blocks(p: QPainter, blocks: Iterable[GroupBlock], clip: QRectF) -> None:
    """The collapsed groups' blocks that meet ``clip`` (a tile), in one call per edge colour (the edge
    says the worst finding). Their figures are drawn live (``draw_block_texts``): text cut at tile edges
    and blitted at another zoom shows seams."""
    shown = [b for b in blocks if b.rect().intersects(clip)]
    if not shown:
        return
    by_edge: dict[int, tuple[QColor, list[QRectF]]] = {}
    for b in shown:
        c = b.edge_color()
        by_edge.setdefault(c.rgba(), (c, []))[1].append(b.rect())
    p.setBrush(BLOCK_FILL)
    for color, rects in by_edge.values():
        pen = QPen(color, 2.5)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.drawRects(rects)


MAX_BLOCK_TEXTS = 60  # blocks whose figures one frame draws, at most (overlapping blocks hide them anyway)


def draw_block_texts(p: QPainter, blocks: Iterable[GroupBlock], exposed: QRectF, scale: float) -> None:
    """The figures of the blocks whose text is in view (a block's text takes its top-left corner)."""
    drawn = 0
    for b in blocks:
        if drawn >= MAX_BLOCK_TEXTS:
            break
        if b.rect().intersects(exposed) and b.draw_text(p, scale, exposed):
            drawn += 1


CHAR_W = 0.58  # a line's width per character, in font pixel sizes (a safe average for Latin and CJK mixes)


def text_layout(lines: list[str], width: float, height: float, max_px: float) -> tuple[float, list[str]]:
    """The block's title and figures on as many text lines as give the largest font (a wide, short block
    puts several figures on a line, joined by " · "): (font pixel size, the text lines)."""
    title, items = lines[0], lines[1:]
    best: tuple[float, list[str]] = (0.0, lines)
    for per_line in range(1, max(1, len(items)) + 1):
        rows = [title] + [" · ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        widest = max(len(t) * (2 if max(t, default=" ") > "\u2e80" else 1) for t in rows)
        px = min(max_px, height / (len(rows) * 1.25 + 0.6), (width * 0.94) / (CHAR_W * widest + 1))
        if px > best[0]:
            best = (px, rows)
    return best
