"""Shared fixtures of the fault-injection suite: one built home per module, seeds from the environment.

``REVERIE_FAULT_SEED`` (default 7) seeds every trial; ``REVERIE_FAULT_TRIALS`` (default 16 per tamper
class) and ``REVERIE_CRASH_TRIALS`` (default 2 per operation) bound the counts. The longer run is
``python tests/bench/bench_faults.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.faults.homebuild import BuiltHome, build_home

SEED = int(os.environ.get("REVERIE_FAULT_SEED", "7"))
TAMPER_TRIALS = int(os.environ.get("REVERIE_FAULT_TRIALS", "16"))
CRASH_TRIALS = int(os.environ.get("REVERIE_CRASH_TRIALS", "2"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltHome:
    """A realistic home (see ``homebuild``), built once per module; tests copy it before writing."""
    return build_home(tmp_path_factory.mktemp("built"))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trials")


def seed_note() -> str:
    return f"(REVERIE_FAULT_SEED={SEED})"
