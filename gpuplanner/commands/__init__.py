"""Undoable edits of the project model. Qt-free; the UI's QUndoStack only wraps these commands."""

from gpuplanner.commands.base import (
    AddRows,
    Command,
    Compound,
    MoveDevices,
    RemoveRows,
    ReplaceRows,
    SetFields,
    UndoStack,
)

__all__ = [
    "AddRows",
    "Command",
    "Compound",
    "MoveDevices",
    "RemoveRows",
    "ReplaceRows",
    "SetFields",
    "UndoStack",
]
