"""The Document's snapshot for the engine worker and the autosave writer: its tables are its own, and its
link index — made lazily from its own links table — answers as the project's did when it was taken."""

from __future__ import annotations

from gpuplanner.commands import RemoveRows
from gpuplanner.ui.document import ProjectSnapshot, snapshot_project
from tests.ui.conftest import small_project


def test_the_snapshot_indexes_its_own_links_and_does_not_follow_later_edits():
    p = small_project()
    snap = snapshot_project(p)
    assert isinstance(snap, ProjectSnapshot)
    before = {d: p.links_of(d) for d in p.devices}
    assert {d: snap.links_of(d) for d in snap.devices} == before and any(before.values())
    # an edit of the project after the snapshot: the snapshot still has the link, in its table and index
    lid = next(iter(p.links))
    lk = p.links[lid]
    RemoveRows("links", [lid]).apply(p)
    assert lid not in p.links and lid not in p.links_of(lk.a_device)
    assert lid in snap.links and lid in snap.links_of(lk.a_device) and lid in snap.links_of(lk.b_device)
    # a snapshot taken now does not have it, although no index was copied
    later = snapshot_project(p)
    assert lid not in later.links_of(lk.a_device)
    assert {d: later.links_of(d) for d in later.devices} == {d: p.links_of(d) for d in p.devices}
