"""config.toml is typed and validated: unknown keys and wrong types are named."""

from __future__ import annotations

import pytest

from core.config import Config, ScopeConfig, load_config, parse_config, save_config
from core.errors import ConfigError
from core.paths import HomePaths


def test_defaults_when_absent(paths: HomePaths) -> None:
    config = load_config(paths.config)
    assert config == Config()
    assert config.recall.duplicate_threshold == 0.95 and config.recall.half_life_days == 30.0


def test_round_trip(paths: HomePaths) -> None:
    config = Config()
    config.general.timezone = "Asia/Seoul"
    config.curation.scopes.append(ScopeConfig(name="notes", kind="markdown", path="/tmp/notes"))
    save_config(paths.config, config)
    assert load_config(paths.config) == config
    assert oct(paths.config.stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[general]\ncolour = 'red'\n", "unknown key 'general.colour'"),
        ("surprise = 1\n", "unknown key 'surprise'"),
        ("[recall]\nhalf_life_days = 'soon'\n", "recall.half_life_days must be a number"),
        ("[security]\nkeyring = 'yes'\n", "security.keyring must be true or false"),
        ("[context]\nbudget = 1.5\n", "context.budget must be an integer"),
        ("[general]\nlanguages = 'en'\n", "general.languages must be a list of a string"),
        ("[general]\nlanguages = ['en', 'xx']\n", "general.languages[1] must be one of"),
        ("[general]\ntimezone = 'Mars/Olympus'\n", "general.timezone is not a known timezone"),
        ("[recall]\nduplicate_threshold = 1.5\n", "recall.duplicate_threshold must be in"),
        ("[[curation.scopes]]\nname = 'a'\nkind = 'ftp'\npath = '/x'\n", "curation.scopes[0].kind must be one of"),
        ("[[curation.scopes]]\nname = 'a'\nkind = 'markdown'\n", "curation.scopes[0].path is required"),
        ("[[curation.scopes]]\nname='a'\nkind='vault'\n[[curation.scopes]]\nname='a'\nkind='vault'\n",
         "repeats the scope name"),
        ("[sharing.profiles.bot]\nmax_items = 0\n", "sharing.profiles.bot"),
        ("[sharing.profiles.bot]\nallowed = ['x']\n", "unknown key 'sharing.profiles.bot.allowed'"),
        ("not toml at all = = =\n", "not valid TOML"),
    ],
)
def test_bad_settings_are_named(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=r"^config.toml: .*") as err:
        parse_config(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_the_bad_file_is_named(paths: HomePaths) -> None:
    paths.config.write_text("[tui]\nanimations = 3\n")
    with pytest.raises(ConfigError, match=str(paths.config)):
        load_config(paths.config)


def test_sharing_profiles_default_and_named() -> None:
    config = parse_config("[sharing.profiles.claude]\ndeny_tags = ['private', 'health']\nreviewed_only = false\n")
    assert config.sharing_profile("claude").deny_tags == ["private", "health"]
    assert config.sharing_profile("default").deny_tags == ["private"]
    with pytest.raises(ConfigError, match="no sharing profile 'nope'"):
        config.sharing_profile("nope")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[curation.scopes]]\nname = 'a'\nkind = 'vault'\nsurprise = 1\n",
         "config.toml: unknown key 'curation.scopes[0].surprise'"),
        ("[curation]\nscopes = [{name = 'a', kind = 'vault'}, 3]\n",
         "config.toml: curation.scopes[1] must be a table, got 3"),
        ("[embedding]\nbackend = 'cloud'\n", "config.toml: embedding.backend must be one of "),
        ("[recall]\nhalf_life_days = 0\n", "config.toml: recall.half_life_days must be in (0, 36500]"),
        ("[recall]\nhalf_life_days = nan\n", "config.toml: recall.half_life_days must be a number, got nan"),
        ("[curation]\ntighten_after_restores = 0\n",
         "config.toml: curation.tighten_after_restores must be in [1, 1000000]"),
        ("[assistants]\nopen_proposals = -1\n",
         "config.toml: assistants.open_proposals must be in [0, 1000000] (0 turns it off)"),
        ("[sharing.profiles.a]\nmax_items = 1\n[sharing.profiles.b]\nmax_tokens = 'many'\n",
         "config.toml: sharing.profiles.b.max_tokens must be an integer, got 'many'"),
        ("[general]\ntimezone = 2026-01-01\n", "config.toml: general.timezone must be a string, got datetime.date"),
    ],
)
def test_the_type_of_each_setting_says_what_is_wrong(text: str, message: str) -> None:
    """The constraints live in the field types (msgspec checks them); the message is worded from them."""
    with pytest.raises(ConfigError) as err:
        parse_config(text)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_saving_checks_what_was_changed_in_memory(paths: HomePaths) -> None:
    config = Config()
    config.recall.default_limit = 0
    with pytest.raises(ConfigError, match=r"recall\.default_limit must be in \[1, 1000\]"):
        save_config(paths.config, config)
    assert not paths.config.exists()  # nothing half-written
    config.recall.default_limit = 7
    config.general.languages = ["ko", "ja"]
    save_config(paths.config, config)
    assert load_config(paths.config) == config


def test_integers_are_numbers_where_a_number_is_asked() -> None:
    config = parse_config("[recall]\nhalf_life_days = 14\nduplicate_threshold = 1\n")
    assert config.recall.half_life_days == 14.0 and isinstance(config.recall.half_life_days, float)
    assert config.recall.duplicate_threshold == 1.0
