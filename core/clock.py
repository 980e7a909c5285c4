"""The one place Reverie reads the wall clock (so tests can freeze it), and the one reading of the
moment and zone a request names: ``--now``/``now`` arguments and ``--tz``/``tz`` names, for every
interface, each error a :class:`TimeInputError` naming the field it came from."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.errors import ReverieError


def utc_now() -> datetime:
    return datetime.now(UTC)


def utc_now_iso() -> str:
    return utc_now().isoformat(timespec="microseconds")


class TimeInputError(ReverieError):
    """A ``now`` or ``tz`` value that cannot be read; ``field`` names the argument it came from."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


def parse_zone(name: str, *, field: str = "tz") -> ZoneInfo:
    """An IANA zone name such as ``Asia/Seoul``."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError) as exc:
        raise TimeInputError(f"unknown timezone {name!r} (an IANA name such as Asia/Seoul)", field) from exc


def parse_now(text: str | None, zone: tzinfo, *, field: str = "now") -> datetime:
    """ISO 8601 (``Z`` accepted); without an offset it is read in ``zone``. ``None`` is the current time.
    The answer is in ``zone``."""
    if text is None:
        return utc_now().astimezone(zone)
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except (ValueError, TypeError) as exc:
        raise TimeInputError(f"not an ISO 8601 time: {text!r} (e.g. 2026-11-29T15:00+09:00)", field) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    try:
        return moment.astimezone(zone)
    except (OverflowError, ValueError) as exc:
        raise TimeInputError(f"{text!r} is out of range", field) from exc
