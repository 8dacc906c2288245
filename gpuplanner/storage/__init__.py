"""``.gpuplan`` project files: SQLite via sqlite-utils, versioned, migrated, saved atomically."""

from gpuplanner.storage.projectfile import open_project
from gpuplanner.storage.saving import save_project
from gpuplanner.storage.schema import APPLICATION_ID, FORMAT_VERSION

__all__ = ["APPLICATION_ID", "FORMAT_VERSION", "open_project", "save_project"]
