"""``reverie remote add / list / remove / status``: the remotes file, one-line refusals with their exit
codes, and the spool's status as text and JSON."""

from __future__ import annotations

import json
import stat

import pytest

from core.paths import HomePaths


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from tui_app.cli.main import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def test_add_list_remove_and_status(capsys: pytest.CaptureFixture[str], isolated_home: HomePaths) -> None:
    code, out, _ = run(capsys, "remote", "add", "home", "me@desk.lan", "--port", "2222")
    assert code == 0 and "spooled and shipped to home" in out
    assert stat.S_IMODE((isolated_home.root / "remotes.json").stat().st_mode) == 0o600
    run(capsys, "remote", "add", "spare", "me@spare.lan")
    code, out, _ = run(capsys, "remote", "list")
    assert out.splitlines() == ["* home  me@desk.lan  port 2222  command reverie",
                                "  spare  me@spare.lan  command reverie"]
    code, out, _ = run(capsys, "remote", "status", "--json")
    status = json.loads(out)
    assert (status["remote"], status["turns"], status["bytes"], status["last_ship"]) == ("home", 0, 0, None)
    code, out, _ = run(capsys, "remote", "status")
    assert "spool: 0 turns in 0 batches waiting" in out and "last successful ship: never" in out
    code, _, err = run(capsys, "remote", "remove", "nowhere")
    assert code == 3 and err.count("\n") == 1 and "no remote 'nowhere' (known: home, spare)" in err
    assert run(capsys, "remote", "remove", "home")[0] == 0
    assert run(capsys, "remote", "list")[1].startswith("* spare")


@pytest.mark.parametrize(("args", "said"), [
    (("bad name", "me@desk"), "remote name 'bad name'"),
    (("home", "--", "-oProxyCommand=sh"), "is not USER@HOST"),
    (("home", "me@desk", "-o", "ProxyCommand=sh -c x"), "is not KEY=VALUE or is not allowed"),
    (("home", "me@desk", "-o", "LocalCommand=touch"), "is not KEY=VALUE or is not allowed"),
])
def test_a_bad_remote_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], isolated_home: HomePaths,
                                             args: tuple[str, ...], said: str) -> None:
    code, _, err = run(capsys, "remote", "add", *args)
    assert code == 2 and err.count("\n") == 1 and said in err
    assert not (isolated_home.root / "remotes.json").exists()
