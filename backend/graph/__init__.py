"""The flow document: its JSON Schemas, the validator and the editor's list view. Pure: no I/O but
reading its own schema files and the message catalogs.

Examples:
    >>> [f.code for f in validate({"format": "flowyard.flow/1"})]
    ['format_invalid', 'format_invalid', 'format_invalid']
"""

from backend.graph.findings import Finding
from backend.graph.list_view import ListEntry, list_view
from backend.graph.ports import ports
from backend.graph.schema import load_schema
from backend.graph.validator import check_flow, validate

__all__ = ["Finding", "ListEntry", "check_flow", "list_view", "load_schema", "ports", "validate"]
