"""A new passphrase has at least 8 characters and is not only whitespace, for `reverie init`, `reverie
passphrase change` and the TUI's create-vault and change screens alike; a vault made with a shorter
one before the rule still opens."""

from __future__ import annotations

import pytest

from core.errors import WeakPassphrase
from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header
from core.vault.passphrase import MIN_PASSPHRASE_LENGTH, check_new_passphrase, passphrase_problem
from tests.helpers.cli import reverie

REFUSED = ["a", " ", "\t", " " * 12, "\t \n \u3000  ", "seven77", "日本語の合言葉"]  # 7 characters, then 7 CJK


@pytest.mark.parametrize("weak", REFUSED)
def test_the_rule(weak: str) -> None:
    assert passphrase_problem(weak) is not None
    with pytest.raises(WeakPassphrase) as caught:
        check_new_passphrase(weak)
    assert "\n" not in str(caught.value) and (len(weak.strip()) < 5 or weak not in str(caught.value))


def test_eight_characters_of_any_script_are_enough() -> None:
    assert MIN_PASSPHRASE_LENGTH == 8
    for good in ("eight888", "日本語の合言葉です", "a b c d "):
        assert passphrase_problem(good) is None


@pytest.mark.parametrize("weak", ["a", " ", "\t", "        "])
def test_init_refuses_a_weak_passphrase_and_writes_nothing(isolated_home: HomePaths, weak: str) -> None:
    result = reverie("init", passphrase=weak)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "at least 8 characters" in result.stderr or "only spaces" in result.stderr
    assert not isolated_home.vault_header.exists()


def test_change_refuses_a_weak_new_passphrase_and_an_old_short_one_still_opens(paths: HomePaths,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    create_header(paths.vault_header, "a", KdfParams.for_tests())  # made before the rule
    assert reverie("verify", passphrase="a").returncode == 0
    header = paths.vault_header.read_bytes()
    for weak in ("b", " ", "\t"):
        monkeypatch.setenv("REVERIE_NEW_PASSPHRASE", weak)
        refused = reverie("passphrase", "change", passphrase="a")
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert "the new passphrase" in refused.stderr and paths.vault_header.read_bytes() == header
    monkeypatch.setenv("REVERIE_NEW_PASSPHRASE", "long enough now")
    assert reverie("passphrase", "change", passphrase="a").returncode == 0
    assert reverie("verify", passphrase="long enough now").returncode == 0
