"""Fixtures of the assistant-surface tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.demo.build import DemoHome
from tests.helpers.serve import running_serve


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[DemoHome, int]]:
    """``reverie serve`` on a free loopback port over a demo home (``tests.helpers.serve``)."""
    with running_serve(tmp_path) as running:
        yield running
