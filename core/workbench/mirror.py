"""The PostgreSQL mirror through the workbench: ``reverie mirror`` and ``reverie mirror search``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from core.index.stored import stored_vectors
from core.mirror.connect import MirrorError, connect, describe_dsn, reported, resolve_dsn
from core.mirror.schema import read_info
from core.mirror.search import MirrorSearch
from core.mirror.sync import Mirroring, sealed_memories
from core.recall import analyze
from core.recall.scoring import ranking_for
from core.sharing import SharePolicy
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.mirror.search import MirrorAnswer
    from core.mirror.sync import MirrorReport


class Mirror(Service):
    """Keeps a PostgreSQL + pgvector database in step with the home through one sharing profile, and
    searches it (core.mirror). The database comes from ``dsn``, else ``REVERIE_MIRROR_DSN``, else
    ``mirror.dsn`` in config.toml."""

    def database(self, dsn: str | None = None) -> str:
        """The database a run would use, as ``postgresql://user@host:port/db`` (never the password)."""
        return describe_dsn(resolve_dsn(dsn, self.config.mirror.dsn))

    def run(self, profile: str, *, dsn: str | None = None, rebuild: bool = False,
            progress: Callable[[str, int, int], None] | None = None) -> MirrorReport:
        """Mirror what ``profile`` shares: new and changed days of the log, the shared memories (the
        passphrase is asked for when the home has a vault), with the home's embedding model's vectors.
        ``rebuild`` drops the mirror's tables first and writes everything again from the log."""
        policy = SharePolicy.from_config(self.config, profile)  # an unknown profile fails before anything
        url = resolve_dsn(dsn, self.config.mirror.dsn)
        bench = self.workbench

        def stored(texts: Mapping[str, str]) -> Mapping[str, Any]:
            return stored_vectors(bench.index.conn, texts, bench.embedder().name)

        with connect(url) as conn, reported(describe_dsn(url), url):  # the database first, then keys and model
            memories = None
            if bench.has_vault:
                bench.unlock()
                memories = lambda: sealed_memories(bench.vault)  # noqa: E731
            run = Mirroring(conn, self.paths, policy, bench.embedder(), describe_dsn(url), memories, progress, stored)
            return run.run(rebuild=rebuild)

    def search(self, query: str, *, dsn: str | None = None, now: datetime | None = None,
               zone: tzinfo | None = None, limit: int = 10) -> MirrorAnswer:
        """``query`` over the mirror: its time range read as ``reverie search`` reads it, then words
        and vectors inside it, fused as the local default fuses (core.mirror.search). The query is
        embedded only when the home's model is the one the mirror's vectors came from."""
        url = resolve_dsn(dsn, self.config.mirror.dsn)
        zone = zone or self.workbench.zone
        now = now or self.workbench.now(zone=zone)
        plan = analyze(query, now, zone, self.config.general.languages,
                       fiscal_year_start=self.config.timeparse.fiscal_year_start)
        with connect(url) as conn, reported(describe_dsn(url), url):
            info = read_info(conn)
            if info is None:
                raise MirrorError(f"mirror: {describe_dsn(url)} holds no mirror yet: "
                                  "run `reverie mirror --profile NAME`")
            model = info.get("embedding_model", "")
            embedder = self.workbench.embedder()
            note = None
            if embedder.name != model:  # another model's vectors: words only
                note = f"the mirror's vectors are {model}'s, not {embedder.name}'s: words only (--rebuild)"
                embedder = None
            searcher = MirrorSearch(conn, embedder, ranking=ranking_for(self.config.embedding.model),
                                    half_life_days=self.config.recall.half_life_days)
            answer = searcher.search(plan, now, limit)
            return replace(answer, note=note) if note else answer
