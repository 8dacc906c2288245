"""Typed errors that carry what the user needs to fix the problem: file, entry, field, value, advice.

A message (and a hint) is either English text or a message not yet rendered: an object with a message id,
named values and ``render(lang)`` (``gpuplanner.text.Msg``). ``str(err)`` is always English (the CLI and the
log); the window renders the message in its language when it shows it (``gpuplanner.text.error_line``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Message(Protocol):
    """A sentence not yet rendered: ``text.Msg`` (core imports nothing of GPU Planner's, so a protocol)."""

    @property
    def id(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...

    def render(self, lang: str = "en") -> str: ...


class PlannerError(Exception):
    """Base of every error GPU Planner reports to a user (the CLI prints one line and exits 2)."""

    def __init__(
        self,
        message: str | Message,
        *,
        file: str | None = None,
        entry: str | None = None,
        field: str | None = None,
        value: object = None,
        hint: str | Message | None = None,
    ) -> None:
        self.msg: Message | None = None if isinstance(message, str) else message
        self.hint_msg: Message | None = None if hint is None or isinstance(hint, str) else hint
        message = message if isinstance(message, str) else message.render("en")
        super().__init__(message)
        self.message = message
        self.file = file
        self.entry = entry
        self.field = field
        self.value = value
        self.hint = hint if hint is None or isinstance(hint, str) else hint.render("en")

    def set_message(self, message: str | Message) -> None:
        """Replace the message (a caller that knows more says where: "table 'racks', row 'r1': …")."""
        self.msg = None if isinstance(message, str) else message
        self.message = message if isinstance(message, str) else message.render("en")
        self.args = (self.message,)

    @property
    def msg_id(self) -> str | None:
        """The message id when the message was given as one (None: English text only)."""
        return None if self.msg is None else self.msg.id

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
