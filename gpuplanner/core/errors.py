"""Typed errors that carry what the user needs to fix the problem: file, entry, field, value, advice."""

from __future__ import annotations


class PlannerError(Exception):
    """Base of every error GPU Planner reports to a user (the CLI prints one line and exits 2)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        entry: str | None = None,
        field: str | None = None,
        value: object = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.entry = entry
        self.field = field
        self.value = value
        self.hint = hint

    def one_line(self) -> str:
        parts = []
        if self.file:
            parts.append(str(self.file))
        if self.entry:
            parts.append(f"entry '{self.entry}'")
        if self.field:
            parts.append(f"field '{self.field}'")
        where = ", ".join(parts)
        text = f"{where}: {self.message}" if where else self.message
        if self.hint:
            text += f" ({self.hint})"
        return text

    def __str__(self) -> str:  # the one-line form everywhere
        return self.one_line()


class CatalogError(PlannerError):
    """A catalog file or entry is malformed or inconsistent."""


class ValidationError(PlannerError):
    """A model edit or input value is not acceptable."""


class ProjectFileError(PlannerError):
    """A project file cannot be read or written."""


class GenerationError(PlannerError):
    """A topology generator refuses an impossible request (with the reason)."""
