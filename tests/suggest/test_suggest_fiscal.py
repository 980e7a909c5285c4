"""The date suggester reads "FY2023" by the home's ``timeparse.fiscal_year_start``, as ``reverie when``
and search do: the suggested start is the start of the range ``reverie when`` shows for the same text
as of the moment the draft was written (it read fiscal years as calendar years whatever the setting)."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner

from core.config import load_config
from core.paths import HomePaths
from core.suggest import SuggestContext, collect
from core.suggest.dates import DateSuggester
from core.suggest.entities import is_plan
from core.vault.review import StoredDraft
from tests.helpers.vault import make_vault
from tui_app.cli import when_cmds
from tui_app.cli.state import CliState

APRIL_HOME = '[general]\ntimezone = "UTC"\n\n[timeparse]\nfiscal_year_start = 4\n'


def _when(text: str, now: str, home: HomePaths) -> dict:
    group = click.Group("reverie")
    when_cmds.register(group)
    result = CliRunner().invoke(group, ["when", text, "--now", now, "--json"], obj=CliState(paths=home))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["range"]


def test_a_fiscal_year_in_a_draft_is_suggested_as_reverie_when_reads_it(paths: HomePaths) -> None:
    paths.config.write_text(APRIL_HOME, encoding="utf-8")
    config = load_config(paths.config)
    written = "2026-11-25T21:00:00+00:00"
    text = "We closed the books for FY2023 with the accountant"
    ctx = SuggestContext(vault=make_vault(paths), config=config, paths=paths)
    found = collect(StoredDraft(draft_id="draft_fy", content=text, created_at=written), ctx, [DateSuggester()])
    assert [f.proposal.field_name for f in found] == ["occurred_at"], ctx.notes
    shown = _when(text, written, paths)
    assert found[0].proposal.value == shown["start"] == "2022-04-01T00:00:00+00:00"
    # the range it describes ends where `when`'s does, at the same grain
    assert shown["end"] == "2023-04-01T00:00:00+00:00" and "– Fri 31 Mar 2023" in found[0].proposal.why
    assert f"({shown['grain'].replace('_', ' ')})" in found[0].proposal.why


def test_whether_a_draft_speaks_of_a_plan_reads_fiscal_years_by_the_setting(paths: HomePaths) -> None:
    """Written in December 2025: FY2026 began in April 2025 by the setting (past, not a plan); read as
    a calendar year it would start in January 2026, ahead of the draft."""
    paths.config.write_text(APRIL_HOME, encoding="utf-8")
    ctx = SuggestContext(vault=make_vault(paths), config=load_config(paths.config), paths=paths)
    draft = StoredDraft(draft_id="draft_fy", content="Budget review for FY2026 with Minji",
                        created_at="2025-12-15T10:00:00+00:00")
    assert not is_plan(draft, ctx)
