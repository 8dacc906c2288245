"""The project document: tables of rows keyed by id; every mutation emits one ChangeSet. No Qt here."""

from gpuplanner.model.changes import ChangeSet, TableChange
from gpuplanner.model.project import Project
from gpuplanner.model.rows import (
    ROW_TYPES,
    SINGLETON_TABLES,
    Device,
    Fabric,
    Link,
    ProjectInfo,
    Rack,
    Scenario,
    Site,
    Workload,
)

__all__ = [
    "ROW_TYPES",
    "SINGLETON_TABLES",
    "ChangeSet",
    "Device",
    "Fabric",
    "Link",
    "Project",
    "ProjectInfo",
    "Rack",
    "Scenario",
    "Site",
    "TableChange",
    "Workload",
]
