"""A tiny synchronous event emitter (no Qt): the model uses it to publish ChangeSets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Emitter(Generic[T]):
    """Calls each connected callback, in connection order, with the emitted value."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[T], None]] = []

    def connect(self, callback: Callable[[T], None]) -> None:
        if callback not in self._callbacks:
            self._callbacks.append(callback)

    def disconnect(self, callback: Callable[[T], None]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, value: T) -> None:
        for cb in list(self._callbacks):
            cb(value)

    def __len__(self) -> int:
        return len(self._callbacks)
