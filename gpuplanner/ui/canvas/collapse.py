"""The scene's side of semantic zoom: which groups are collapsed, hiding what they hold (items, overview
rectangles, inside links) and keeping one ``groups.GroupBlock`` per collapsed group with its figures.
Mixed into ``scene.PlannerScene``."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF

from gpuplanner.ui.canvas import groups as grp
from gpuplanner.ui.floor.layout import phase_allowed


class GroupsMixin:
    def groups(self) -> dict[str, grp.Group]:
        """The plan's groups, kept until racks or devices change (``forget_groups``)."""
        if self._groups is None:
            self._groups = grp.build_groups(self.project)
        return self._groups

    def forget_groups(self) -> None:
        self._groups = None

    def collapse(self, keys: list[str]) -> None:
        """Collapse the groups ``keys`` into blocks (a collapsed group overlapping one of them expands)."""
        groups = self.groups()
        keys = [k for k in keys if k in groups]
        if not keys:
            return
        taken: set[str] = set()
        for k in keys:
            taken |= set(groups[k].device_ids) | set(groups[k].rack_ids)
        keep = [
            k
            for k in self.collapsed
            if k in groups and not (set(groups[k].device_ids) | set(groups[k].rack_ids)) & taken
        ]
        self.collapsed = keep + [k for k in keys if k not in keep]
        self._apply_groups(groups)

    def expand(self, key: str) -> None:
        if key in self.collapsed:
            self.collapsed.remove(key)
            self._apply_groups()

    def expand_all(self) -> None:
        if self.collapsed:
            self.collapsed = []
            self._apply_groups()

    def collapse_all(self, kind: str = "su") -> None:
        """Collapse every group of ``kind`` that holds GPUs (scalable units, or rows of racks)."""
        self.collapse([k for k, g in self.groups().items() if g.kind == kind and g.has_gpus])

    def groups_of(self, ids: list[str], kind: str = "su") -> list[str]:
        """The groups of ``kind`` holding any of the racks or devices ``ids``."""
        want = set(ids)
        return [
            k
            for k, g in self.groups().items()
            if g.kind == kind and (want & set(g.device_ids) or want & set(g.rack_ids))
        ]

    def _apply_groups(self, groups: dict[str, grp.Group] | None = None, sync_items: bool = True) -> None:
        """Hide what the collapsed groups hold and put a block in their place (nothing to do, and no
        cost, while nothing is collapsed). The racks and devices of a collapsed group have no items: they
        are removed here, and made again when the group expands (``sync_items``: False while the scene
        is being built, which makes the items itself)."""
        if not self.collapsed and not self.blocks and not self._group_hidden:
            return
        groups = groups if groups is not None else self.groups()
        self.collapsed = [k for k in self.collapsed if k in groups]
        geom = self.geom
        dev_block = np.full(len(geom.ids), -1, dtype=np.int64)
        rects, hidden = [], set()
        self._block_groups = [groups[k] for k in self.collapsed]
        self._block_index = grp.BlockIndex(self._block_groups)
        for k, g in enumerate(self._block_groups):
            rect = grp.block_rect(self.project, geom, g)
            rects.append((rect.x(), rect.y(), rect.width(), rect.height()))
            rows = [geom.index[i] for i in g.device_ids if i in geom.index]
            dev_block[rows] = k
            hidden |= set(g.device_ids) | set(g.rack_ids)
            block = self.blocks.get(g.key)
            if block is None:
                block = grp.GroupBlock(g.key, rect)
                self.addItem(block)
                self.blocks[g.key] = block
            block.set_rect(rect)
            block.figures = None  # its text is made again (a row's rack count may have changed)
        for key in [k for k in self.blocks if k not in self.collapsed]:
            self.removeItem(self.blocks.pop(key))
        changed = hidden ^ self._group_hidden
        self._group_hidden = hidden
        if sync_items and changed:
            self._allowed = phase_allowed(self.project, self.phase_id)
            was, self._selecting = self._selecting, True  # one selection signal, not one per removed item
            selected_before = len(self.selectedItems())
            racks = self.project.racks
            for i in changed:
                if i in racks:
                    self._sync_rack(i)
                else:
                    self._sync_device(i)
            self._selecting = was
            if len(self.selectedItems()) != selected_before:
                self._on_selection()
        self.overview.device_group_off = dev_block >= 0
        self.overview.rack_group_off = np.array([i in hidden for i in self.overview.rack_ids], dtype=bool)
        self.layer.set_collapse(dev_block, np.array(rects, dtype=float).reshape(-1, 4), geom)
        self._block_figures()
        self.groupsChanged.emit()

    def _block_figures(self) -> int:
        """The collapsed blocks' figures from the latest results; returns how many blocks' text changed."""
        if not self._block_groups:
            return 0
        layer = self.layer
        ends = (
            (layer.dev_block[layer.a], layer.dev_block[layer.b])
            if len(layer.a)
            else (
                np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
            )
        )
        figs = grp.block_figures(
            # (the layer's id → row index is made only when a finding names a link)
            self.project,
            self.doc.results,
            self._block_groups,
            ends,
            lambda i: layer.index.get(i),
            layer.util,
            self._block_index,
        )
        stale, changed = [], 0
        for g, f in zip(self._block_groups, figs, strict=True):
            block = self.blocks[g.key]
            key = grp.figures_key(f)
            if key == block.figures:
                continue  # the same figures: the same text (a new block, or a language switch, has none)
            block.figures = key
            changed += 1
            if block.set_figures(lambda g=g, f=f: grp.block_lines(g, f), f.worst):
                stale.append(block.boundingRect())
        if stale:
            layer.invalidate_rects(stale)  # the blocks' edges are drawn in the layer's tiles
        if changed:
            layer.update()  # (their text is drawn live, over the tiles)
        return changed

    def block_at(self, x: float, y: float) -> str | None:
        for key, block in self.blocks.items():
            if block.boundingRect().contains(QPointF(x, y)):
                return key
        return None
