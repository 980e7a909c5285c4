"""What every workbench service holds: the workbench it hangs off, and its home and settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.config import Config
    from core.paths import HomePaths
    from core.workbench.home import Workbench


class Service:
    """A use case's service, created once per :class:`~core.workbench.home.Workbench`."""

    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench

    @property
    def paths(self) -> HomePaths:
        return self.workbench.paths

    @property
    def config(self) -> Config:
        return self.workbench.config
