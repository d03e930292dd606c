"""The organiser's key outlives a restart of ``skat serve`` (issue 34, W9):
kept in the sheets folder, readable by its owner only."""

from __future__ import annotations

import stat
import warnings

from conftest import new_sheet


def _client(app):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(app, base_url="http://testserver")


def test_the_organiser_stays_in_after_a_restart(tmp_path):
    from skatcore.web.app import Config, create_app
    from skatcore.web.security import KEY_FILE

    first = create_app(Config(tmp_path))
    key_file = tmp_path / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    organiser = _client(first)
    assert organiser.get(f"/?key={key}").status_code == 200
    new_sheet(organiser)
    again = create_app(Config(tmp_path))  # the server restarted on the same folder
    assert again.app.state.config.key == key and key_file.read_text().strip() == key
    phone = _client(again)
    phone.cookies.update(organiser.cookies)  # the organiser's device, its cookies from before the restart
    page = phone.get("/")
    assert page.status_code == 200 and 'data-testid="join-code"' in phone.get("/s/eve").text
    assert "Join a score sheet" not in page.text and "/s/eve" in page.text
    assert _client(again).get("/s/eve").status_code == 404  # a device without the key is still a stranger


def test_a_key_given_wins_and_a_new_key_replaces_the_file(tmp_path):
    from skatcore.web.app import Config, create_app
    from skatcore.web.security import KEY_FILE, stored_key

    app = create_app(Config(tmp_path, key="given-key-1"))
    assert app.app.state.config.key == "given-key-1" and not (tmp_path / KEY_FILE).exists()
    old = stored_key(tmp_path)
    assert stored_key(tmp_path) == old
    (tmp_path / KEY_FILE).chmod(0o644)
    assert stored_key(tmp_path) == old and stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    new = stored_key(tmp_path, renew=True)
    assert new != old and create_app(Config(tmp_path)).app.state.config.key == new
    assert [p.name for p in tmp_path.iterdir()] == [KEY_FILE]  # no temporary file left behind
