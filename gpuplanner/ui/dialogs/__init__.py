"""Dialogs: workload, site and costs, new project from a topology template."""
