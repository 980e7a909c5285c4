"""Times at the very ends of the calendar (issue 11, the time fuzzers): turns dated anywhere from year 1
to 9999-12-31T23:59:59 (the boundary the older fuzzers stopped one day short of), with offsets that move
them past either end in UTC, and leap seconds, go through the real ingest and seal; whatever each line
becomes (a turn or a quarantined line), the home keeps working: a later ordinary ingest and a seal both
succeed and ``verify`` finds nothing wrong."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.conversation import ingest, seal_closed_days
from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header
from core.workbench.verify import verify_home

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
OFFSETS = st.sampled_from([UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12)),
                           timezone(timedelta(hours=9)), timezone(timedelta(hours=-23, minutes=-59))])
EDGES = st.sampled_from([datetime(9999, 12, 31, 23, 59, 59), datetime(9999, 12, 31), datetime(1, 1, 1),
                         datetime(1, 1, 1, 0, 0, 1), datetime(9999, 12, 30, 23, 0)])
WHEN = st.one_of(EDGES, st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)))


@st.composite
def stamps(draw: st.DrawFn) -> str:
    moment = draw(WHEN).replace(tzinfo=draw(OFFSETS))
    text = moment.isoformat()
    if draw(st.booleans()) and moment.second == 59:
        text = text.replace(":59+", ":60+", 1).replace(":59-", ":60-", 1)  # a leap second
    return text.replace("+00:00", draw(st.sampled_from(["Z", "+00:00"])))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(times=st.lists(stamps(), min_size=1, max_size=4))
def test_turns_at_the_ends_of_the_calendar_never_break_ingest_or_seal(tmp_path_factory, times: list[str]) -> None:
    base = tmp_path_factory.mktemp("far")
    paths = HomePaths(root=base / "home", cache=base / "cache").ensure()
    keys = create_header(paths.vault_header, "correct horse battery staple", KdfParams.for_tests())
    source = base / "far.jsonl"
    source.write_text("".join(json.dumps({"ts": ts, "role": "user", "text": f"turn at {ts}", "session": "s",
                                          "id": f"far-{n}"}) + "\n" for n, ts in enumerate(times)), encoding="utf-8")
    first = ingest(paths, [source], keys=keys, now=NOW)
    assert first.added + len(first.quarantined) + first.duplicates == len(times), first.to_dict()
    seal_closed_days(paths, keys, now=NOW)
    later = base / "later.jsonl"
    later.write_text(json.dumps({"ts": "2026-11-20T10:00:00Z", "role": "user", "text": "an ordinary turn",
                                 "session": "s", "id": "ordinary"}) + "\n", encoding="utf-8")
    second = ingest(paths, [later], keys=keys, now=NOW)
    assert second.added == 1 and "2026-11-20" in second.sealed, second.to_dict()
    report = seal_closed_days(paths, keys, now=NOW + timedelta(days=1))
    assert not report.refused
    assert verify_home(paths, keys).ok
