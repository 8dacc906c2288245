"""Counted phrases for code that is not a QObject (canvas tooltips, group blocks, the estimate line, edit
commands): Qt's %n plurals need ``self.tr(text, None, n)`` inside a class for lupdate to mark them, so they
live here. ``%Ln`` writes the count with the UI locale's group separators ("36,864 links"); English gets
"1 rack" / "2 racks" from the plural-only ``gpuplanner_en.qm``, Chinese has one form."""

from __future__ import annotations

from PySide6.QtCore import QObject


class Counts(QObject):
    def gpus(self, n: int) -> str:
        return self.tr("%Ln GPU(s)", None, n)

    def racks(self, n: int) -> str:
        return self.tr("%Ln rack(s)", None, n)

    def findings(self, n: int) -> str:
        return self.tr("%Ln finding(s)", None, n)

    def delete_question(self, n: int) -> str:
        return self.tr("Delete %Ln selected item(s) and their links?", None, n)

    def estimate_head(self, n: int) -> str:
        """The start of the estimate line: "16,384 GPUs"."""
        return self.tr("%Ln GPU(s):", None, n)

    def delete_items(self, n: int) -> str:
        """An undo step's name: "Delete 1,024 items"."""
        return self.tr("Delete %Ln item(s)", None, n)

    def paste_items(self, n: int) -> str:
        return self.tr("Paste %Ln item(s)", None, n)

    def set_field_of(self, n: int) -> str:
        return self.tr("Set {field} of %Ln item(s)", None, n)

    def selected_of_table(self, table: str, n: int) -> str:
        if table == "racks":
            return self.tr("<b>%Ln rack(s) selected</b> — an edit applies to all of them", None, n)
        if table == "devices":
            return self.tr("<b>%Ln device(s) selected</b> — an edit applies to all of them", None, n)
        return self.tr("<b>%Ln link(s) selected</b> — an edit applies to all of them", None, n)

    def items_of_several_kinds(self, n: int) -> str:
        return self.tr(
            "<b>%Ln item(s) selected</b> — select items of one kind to edit them together", None, n
        )


_counts: Counts | None = None


def counts() -> Counts:
    """One shared instance (the translation is looked up at each call, so a language switch applies)."""
    global _counts
    if _counts is None:
        _counts = Counts()
    return _counts
