"""The sharing rule on its own: granted = requested ∩ allowed − denied; denied wins on every memory."""

from __future__ import annotations

from core.sdk.sharing import Grant


def test_granted_tags_never_exceed_the_request() -> None:
    grant = Grant.of(["family", "milestone", "family"], ["milestone", "health"], None)
    assert grant.requested == ["family", "milestone"] and grant.granted == ["milestone"]
    assert grant.refused == ["family"]


def test_without_allowed_tags_the_request_is_the_allowed_set() -> None:
    grant = Grant.of(["work", "preference"], None, ["work"])
    assert grant.granted == ["preference"] and grant.refused == ["work"]
    assert Grant.of(["work"], [], None).granted == ["work"]  # an empty list allows like None (upstream)


def test_denied_wins_over_a_memory_s_other_tags_and_ignores_case() -> None:
    grant = Grant.of(["milestone"], None, [" Private "])
    assert grant.allows(["milestone"])
    assert not grant.allows(["milestone", "private"])
    assert not grant.allows(["milestone", "PRIVATE"])
    assert not grant.allows(["family"])
    assert not Grant.of(["Private"], None, ["private"]).granted
