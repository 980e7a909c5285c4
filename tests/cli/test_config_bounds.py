"""Every number in ``config.toml`` has a finite, sane range: a typo is one line naming the key and the
range (exit 2), never a setting that overflows a timer or asks for 100,000 threads."""

from __future__ import annotations

from pathlib import Path

import msgspec.inspect as mi
import pytest

from core.config import Config, load_config
from core.errors import ConfigError


def _numbers(info: mi.Type, prefix: str = "") -> list[tuple[str, mi.IntType | mi.FloatType]]:
    info = info.type if isinstance(info, mi.Metadata) else info
    if isinstance(info, mi.IntType | mi.FloatType):
        return [(prefix, info)]
    if isinstance(info, mi.DataclassType):
        return [n for f in info.fields for n in _numbers(f.type, f"{prefix}.{f.encode_name}".lstrip("."))]
    if isinstance(info, mi.ListType | mi.DictType):
        inner = info.item_type if isinstance(info, mi.ListType) else info.value_type
        return _numbers(inner, f"{prefix}.*")
    return []


def test_every_numeric_setting_has_both_ends() -> None:
    numbers = _numbers(mi.type_info(Config))
    assert len(numbers) > 20
    for key, info in numbers:
        assert info.ge is not None or info.gt is not None, key
        assert info.le is not None or info.lt is not None, key


@pytest.mark.parametrize(("section", "line", "message"), [
    ("security", "idle_lock_minutes = 100000000000000000000", "security.idle_lock_minutes must be in [0, 10080]"),
    ("security", "idle_lock_minutes = 1e20", "security.idle_lock_minutes must be an integer"),
    ("recall", "half_life_days = inf", "recall.half_life_days must be in (0, 36500]"),
    ("recall", "half_life_days = nan", "recall.half_life_days must be a number, got nan"),
    ("embedding", "threads = 100000", "embedding.threads must be in [0, 1024]"),
    ("embedding", "batch_size = 0", "embedding.batch_size must be in [1, 4096]"),
    ("context", "budget = 99999999999", "context.budget must be in [1, 1000000]"),
    ("sharing.profiles.x", "max_items = 5000", "sharing.profiles.x.max_items must be in [1, 1000]"),
    ("tui", "search_debounce_ms = -1", "tui.search_debounce_ms must be in [0, 10000]"),
])
def test_an_out_of_range_number_is_one_line_naming_key_and_range(tmp_path: Path, section: str, line: str,
                                                                 message: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[{section}]\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert str(caught.value) == f"{config}: {message}" or str(caught.value).startswith(f"{config}: {message}")
    assert "\n" not in str(caught.value)


def test_the_ends_of_each_range_are_accepted(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[security]\nidle_lock_minutes = 10080\n[embedding]\nthreads = 1024\n"
                      "[recall]\nhalf_life_days = 36500.0\ndefault_limit = 1000\n", encoding="utf-8")
    loaded = load_config(config)
    assert loaded.security.idle_lock_minutes == 10080 and loaded.embedding.threads == 1024
    assert loaded.recall.half_life_days == 36500.0 and Config() == load_config(tmp_path / "absent.toml")


def test_the_cli_refuses_a_bad_setting_with_exit_2(tmp_path: Path) -> None:
    from tests.helpers.cli import reverie

    home = Path(__import__("os").environ["REVERIE_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[recall]\nhalf_life_days = inf\n", encoding="utf-8")
    result = reverie("search", "x")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "recall.half_life_days must be in (0, 36500]" in result.stderr
