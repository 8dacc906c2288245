"""The project document: tables of rows keyed by id; every mutation emits one ChangeSet. No Qt here."""

from gpuplanner.model.changes import ChangeSet, TableChange
from gpuplanner.model.project import Project
from gpuplanner.model.rows import (
    ROW_TYPES,
    SINGLETON_TABLES,
    AisleRow,
    DesignGoal,
    Device,
    Fabric,
    FloorItem,
    Link,
    Phase,
    ProjectInfo,
    Rack,
    Scenario,
    Site,
    Team,
    Workload,
)

__all__ = [
    "AisleRow",
    "FloorItem",
    "Phase",
    "Team",
    "ROW_TYPES",
    "SINGLETON_TABLES",
    "ChangeSet",
    "DesignGoal",
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
