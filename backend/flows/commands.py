"""`flowyard flow save FILE [--flow ID]`: a flow file saved as a new flow, or as a new version of one."""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime

from psycopg import AsyncConnection

from backend.actions.command_rights import CommandRefused
from backend.console import locale, refuse, say
from backend.flows.schedules import ScheduleInvalid
from backend.flows.store import create_flow, save_version
from backend.graph import validate
from backend.graph.cli import FlowFileUnreadable, print_findings, read_flow_file


def flow_command(args: argparse.Namespace, url: str) -> int:
    return asyncio.run(save_flow_command(url, args.file, args.flow, args.settings.max_findings))


async def save_flow_command(url: str, path: str, flow_id: int | None, max_findings: int) -> int:
    """Validate a flow file and save it; with findings, print them as `check` does (but in the terminal's
    language: `check`'s English is a contract, this command's findings are for the person saving) and save
    nothing."""
    try:
        document = read_flow_file(path)
    except FlowFileUnreadable as unreadable:
        return refuse(unreadable, exit_code=2, path=path)
    findings = validate(document, locale(), limit=max_findings, now=datetime.now(UTC))
    if findings:
        print_findings(path, findings, as_json=False)
        return 1
    assert isinstance(document, dict)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        try:
            if flow_id is None:
                flow_id, version = await create_flow(conn, document, by="cli"), 1
            else:
                version = await save_version(conn, flow_id, document, by="cli")
        except ScheduleInvalid as invalid:
            return refuse(invalid)
        except CommandRefused as refused:
            return refuse(refused)
        except LookupError:
            return refuse(code="flow_not_found")
    say(code="cli_flow_saved", flow=flow_id, version=version)
    return 0
