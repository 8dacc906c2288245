"""All messages in one table, merged from the data modules of this package.

Each data module holds one dict ``id → (English, Chinese)`` and nothing else: whole sentences or labels with
named placeholders (see ``render`` for the syntax). They are Python dict literals, not YAML or JSON files:
the report's tables already had this form (moving them kept their history and the entries other branches
add), they need no loader, no package-data or PyInstaller ``datas`` entry, and a syntax error fails at
import with a line number. An id is defined once: a duplicate raises at import.

Id prefixes: ``finding.<rule>`` / ``fix.<rule>`` (checks), ``perf.`` (performance sentences), ``error.``
(messages of errors the user sees), ``word.<vocabulary>.<slug>`` (a word for an engine slug), ``col.`` (a
column header or a short cell word of the CLI's text tables), ``an.`` (a line of `gpuplanner analyze`); the report's
ids have no prefix (``page_of``, ``sum_plan``), as its API (``reports.i18n.tr``) has always named them.
"""

from __future__ import annotations

from gpuplanner.text.cli_advise import ADVISE
from gpuplanner.text.cli_analyze import ANALYZE
from gpuplanner.text.cli_args import ARGS
from gpuplanner.text.cli_estimate import ESTIMATE
from gpuplanner.text.cli_validate import VALIDATE
from gpuplanner.text.errors_edit import ERRORS_EDIT
from gpuplanner.text.errors_file import ERRORS_FILE
from gpuplanner.text.errors_model import ERRORS_MODEL
from gpuplanner.text.errors_perf import ERRORS_PERF
from gpuplanner.text.errors_plan import ERRORS_PLAN
from gpuplanner.text.errors_report import ERRORS_REPORT
from gpuplanner.text.errors_topology import ERRORS_TOPOLOGY
from gpuplanner.text.export_xlsx import XLSX
from gpuplanner.text.findings_facility import FINDINGS_FACILITY
from gpuplanner.text.findings_network import FINDINGS_NETWORK
from gpuplanner.text.perf import PERF
from gpuplanner.text.report_appendix import APPENDIX
from gpuplanner.text.report_body import BODY
from gpuplanner.text.report_front import FRONT
from gpuplanner.text.report_inputs import INPUTS
from gpuplanner.text.report_layout import LAYOUT
from gpuplanner.text.report_names import NAMES
from gpuplanner.text.report_options import OPTIONS
from gpuplanner.text.report_plan import PLAN
from gpuplanner.text.report_project import PROJECT
from gpuplanner.text.report_proposal import PROPOSAL
from gpuplanner.text.validation_inference import VALIDATION_INFERENCE
from gpuplanner.text.words import WORDS

TABLES: dict[str, dict[str, tuple[str, str]]] = {
    "findings_facility": FINDINGS_FACILITY,
    "findings_network": FINDINGS_NETWORK,
    "perf": PERF,
    "errors_perf": ERRORS_PERF,
    "errors_plan": ERRORS_PLAN,
    "errors_file": ERRORS_FILE,
    "errors_edit": ERRORS_EDIT,
    "errors_model": ERRORS_MODEL,
    "errors_report": ERRORS_REPORT,
    "errors_topology": ERRORS_TOPOLOGY,
    "words": WORDS,
    "report_front": FRONT,
    "report_body": BODY,
    "report_plan": PLAN,
    "report_project": PROJECT,
    "report_options": OPTIONS,
    "report_proposal": PROPOSAL,
    "report_names": NAMES,
    "report_inputs": INPUTS,
    "report_layout": LAYOUT,
    "report_appendix": APPENDIX,
    "export_xlsx": XLSX,
    "validation_inference": VALIDATION_INFERENCE,
    "cli_estimate": ESTIMATE,
    "cli_validate": VALIDATE,
    "cli_analyze": ANALYZE,
    "cli_advise": ADVISE,
    "cli_args": ARGS,
}


def merged(tables: dict[str, dict[str, tuple[str, str]]]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for name, table in tables.items():
        twice = sorted(set(out) & set(table))
        if twice:
            raise ValueError(f"text table {name} defines ids defined before: {', '.join(twice)}")
        out.update(table)
    return out


MESSAGES: dict[str, tuple[str, str]] = merged(TABLES)
