"""Topology generators (they emit model edits), rack placement and layout."""

from gpuplanner.topology.generators import GenerateOptions, apply_plan, generate, generate_into, template_list

__all__ = ["GenerateOptions", "apply_plan", "generate", "generate_into", "template_list"]
