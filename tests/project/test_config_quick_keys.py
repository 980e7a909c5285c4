"""Unknown keys in config.toml are found without msgspec's type description of the settings (about 3
ms, before the app's first frame), and named exactly as the type-driven walk names them."""

from __future__ import annotations

import tomllib

import pytest

import core.config as config_module
from core.config import Config, load_config, parse_config
from core.errors import ConfigError
from core.paths import HomePaths

DOCUMENTS = [
    "",
    "[general]\ntimezone = 'Asia/Seoul'\nlanguages = ['ko', 'en']\n",
    "[general]\ncolour = 'red'\n",
    "surprise = 1\n",
    "[tui]\nkeymap = { 'app.quit' = 'ctrl+x' }\n",
    "[tui.keymap.nested]\nx = 1\n",
    "[[curation.scopes]]\nname = 'notes'\nkind = 'markdown'\npath = '/x'\n",
    "[[curation.scopes]]\nname = 'notes'\nsurprise = 1\n",
    "[[curation.scopes]]\nname = 'a'\n[[curation.scopes]]\nname = 'b'\nwhere = 2\n",
    "[sharing.profiles.bot]\nallowed = ['x']\n",
    "[sharing.profiles.bot]\nallow_tags = ['x']\n[sharing.profiles.other]\nmax_items = 3\n",
    "[general]\nlanguages = [{ x = 1 }]\n",
    "[watch]\nfollow = ['~/.claude/projects']\n[serve]\nmax_sessions = 2\nextra = 1\n",
    "general = 5\n",
    "[general]\ntimezone = [{ x = 1 }]\n",  # a plain field (no item type) given a list of tables
    "[embedding]\nmodel = { x = { y = 1 } }\n",
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_quick_check_names_what_the_type_walk_names(text: str) -> None:
    data = tomllib.loads(text)
    quick = config_module._plain_unknown_key(data, Config(), "")
    full = config_module._unknown_key(data, config_module._config_info(), "")
    if quick is config_module._UNSURE:  # a table where no section belongs: left to the types (a type error)
        assert any(where in text for where in ("languages", "keymap.nested", "timezone", "model"))
    else:
        assert quick == full


def test_loading_settings_builds_no_type_description(paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    paths.config.write_text("[general]\ntimezone = 'UTC'\n[[curation.scopes]]\nname = 'notes'\nkind = 'markdown'\n"
                            "path = '/x'\n[sharing.profiles.bot]\nallow_tags = ['x']\n")

    def no_type_info() -> None:
        raise AssertionError("msgspec's type description was built")

    monkeypatch.setattr(config_module, "_config_info", no_type_info)
    config = load_config(paths.config)
    assert config.curation.scopes[0].name == "notes" and config.sharing.profiles["bot"].allow_tags == ["x"]
    with pytest.raises(ConfigError, match=r"unknown key 'curation\.scopes\[0\]\.surprise'"):
        parse_config("[[curation.scopes]]\nname = 'notes'\nsurprise = 1\n", "config.toml")


@pytest.mark.parametrize("text", ["[general]\ntimezone = [{ x = 1 }]\n", "[embedding]\nmodel = { x = { y = 1 } }\n"])
def test_a_table_where_a_plain_value_belongs_is_one_line_naming_the_key(text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    message = str(caught.value)
    assert "\n" not in message and ("timezone" in message or "model" in message), message
