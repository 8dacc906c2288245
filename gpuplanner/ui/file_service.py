"""Where the open document lives on disk: its path, opening and saving. Qt-free (tested without a window).

The Document owns one ``FileService``; it opens a file into a new project (the current one untouched when
the file is refused), saves to the path it has or to a new one (Save As), and forgets the path for an
untitled copy. What is modified since the last save is the undo stack's business, not this one's.
"""

from __future__ import annotations

from pathlib import Path

from gpuplanner.core.errors import PlannerError
from gpuplanner.model import Project
from gpuplanner.storage import open_project, save_project
from gpuplanner.text import Msg


class FileService:
    def __init__(self, path: Path | None = None) -> None:
        self.path: Path | None = path

    @property
    def untitled(self) -> bool:
        return self.path is None

    def open(self, path: str | Path) -> Project:
        """The project in ``path``; the service's path follows only when the file opened (ProjectFileError
        otherwise, with nothing changed)."""
        project = open_project(path)
        self.path = Path(path)
        return project

    def save(self, project: Project, path: str | Path | None = None) -> Path:
        """Save to ``path`` (Save As: it becomes the service's path) or to the current path."""
        target = Path(path) if path else self.path
        if target is None:
            raise PlannerError(Msg("error.file.no_name_yet"))
        save_project(project, target)
        self.path = target
        return target

    def forget(self) -> None:
        """An untitled copy from here on (a shipped example, a recovered file): the next save asks where."""
        self.path = None
