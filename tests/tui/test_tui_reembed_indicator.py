"""The TUI's index lines show another model's re-embedding beside the searched vectors."""

from __future__ import annotations

from core.workbench.freshness import Freshness
from tui_app.screens.search_view import index_text
from tui_app.views.imports import index_status_line


def test_the_search_screen_and_home_lines_show_the_reembedding() -> None:
    state = Freshness(turns=10, memories=0, vectors=10, pending_vectors=0, model="old-hash",
                      shadow_model="new-hash", shadow_vectors=4, shadow_pending=6)
    assert index_text(state, "F2").plain == ("Index: 10 turns · 0 memories · 10 vectors (old-hash), "
                                             "re-embedding with new-hash: 4 of 10")
    fresh = Freshness(turns=10, vectors=10, shadow_model="new-hash", shadow_vectors=4, shadow_pending=6)
    assert "vectors for 10 of 10 · re-embedding with new-hash: 4 of 10 ·" in index_status_line(fresh)
    assert "re-embedding" not in index_status_line(Freshness(turns=10, vectors=10))
