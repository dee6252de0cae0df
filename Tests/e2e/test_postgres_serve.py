"""`reelhouse serve` with its library in PostgreSQL (docs/scale-out.md, `databaseUrl`): the API
answers — sign-in, an import by the CLI on the same database, the feed — with no SQLite file in
the data folder, and two nodes started at the same moment on one fresh database both come up
(the migrations run once, under the advisory lock; the owner account is made once) and count
their login limits together."""
import json
import threading
import time

import pytest

from conftest import LiveServer, http, make_clip, reelhouse
from pykit import postgres
from pykit.api import sign_in

SECRET = "e2e-shared-secret-of-at-least-32-characters"


@pytest.fixture
def database():
    cluster = postgres.cluster()
    url = cluster.fresh_database()
    yield cluster, url
    cluster.drop(url)


def node(data, url: str, *args: str, env: dict | None = None) -> LiveServer:
    return LiveServer(data, args=("--bcrypt-cost", "4", *args), ready_text="listening on", startup_timeout=120,
                      env={"REELHOUSE_DATABASE_URL": url, "REELHOUSE_SECRET": SECRET, **(env or {})})


def test_serve_on_postgres_signs_in_imports_and_serves_the_feed(tmp_path, database):
    cluster, url = database
    # The test cluster trusts local connections, so a password is accepted and ignored: here it
    # only shows that a URL is never printed with its password.
    url = url.replace("postgres@", "postgres:pw-never-printed@")
    data = tmp_path / "data"
    server = node(data, url)
    try:
        password = server.printed_password()
        assert password, server.output()
        cookie, _ = sign_in(server.url, "owner", password)
        status, _, body = http(server.url + "/api/v1/feed?limit=10", headers={"Cookie": cookie})
        assert status == 200 and json.loads(body)["items"] == []

        # The CLI writes to the same database; the server's worker (woken by NOTIFY) transcodes.
        clip = make_clip(tmp_path / "clip.mp4", seconds=2)
        imported = json.loads(reelhouse(data, "import", str(clip), "--json", "--no-wait",
                                        env={"REELHOUSE_DATABASE_URL": url}).stdout)["imported"]
        assert len(imported) == 1
        post_id = imported[0]["id"]
        deadline = time.monotonic() + 120
        ids = []
        while time.monotonic() < deadline:
            status, _, body = http(server.url + "/api/v1/feed?limit=10", headers={"Cookie": cookie})
            assert status == 200, body
            ids = [item["id"] for item in json.loads(body)["items"]]
            if post_id in ids:
                break
            time.sleep(0.3)
        assert ids == [post_id], server.output()[-3000:]

        assert cluster.query(url, "SELECT status FROM posts") == [["ready"]]
        assert cluster.query(url, "SELECT kind, state FROM jobs WHERE kind = 'transcode'") == [["transcode", "succeeded"]]
        assert not (data / "reelhouse.sqlite").exists(), "the library is in PostgreSQL, not the data folder"
        output = server.output()
        assert "library in PostgreSQL" in output and "postgres:***@" in output
        assert "pw-never-printed" not in output
    finally:
        server.stop()


def test_two_nodes_started_at_once_on_a_fresh_database_both_come_up(tmp_path, database):
    cluster, url = database
    nodes: list[LiveServer] = []
    failures: list[BaseException] = []

    def start(name: str) -> None:
        try:
            # A day-long login window: PostgreSQL's windows are aligned to the clock, and four
            # tries that straddled a boundary of the default 5 minutes would start a new one.
            nodes.append(node(tmp_path / name / "data", url, "--role", "api",
                              env={"REELHOUSE_LOGIN_ATTEMPTS_PER_ACCOUNT": "3", "REELHOUSE_LOGIN_WINDOW": "86400"}))
        except BaseException as error:  # noqa: BLE001 (reported below with the other node's)
            failures.append(error)

    threads = [threading.Thread(target=start, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert not failures, failures
        assert len(nodes) == 2
        versions = cluster.query(url, "SELECT count(*), count(DISTINCT version) FROM reelhouse_migrations")[0]
        assert versions[0] == versions[1] and int(versions[0]) > 0, "each migration recorded once"
        assert cluster.query(url, "SELECT name, role FROM users") == [["owner", "owner"]]
        printed = [password for password in (n.printed_password() for n in nodes) if password]
        assert len(printed) == 1, "one node made the owner account and printed its password"
        # Either node signs the owner in: one library behind both.
        for running in nodes:
            cookie, _ = sign_in(running.url, "owner", printed[0])
            status, _, body = http(running.url + "/api/v1/me", headers={"Cookie": cookie})
            assert status == 200 and json.loads(body)["name"] == "owner"
        # The login limit (3 tries per account here) is counted in the database, for both nodes:
        # two wrong passwords on each, and the fourth try, on the second node, is refused.
        statuses = [http(running.url + "/api/v1/session", "POST", body={"username": "nobody", "password": "wrong"})[0]
                    for running in (nodes[0], nodes[0], nodes[1], nodes[1])]
        assert statuses == [401, 401, 401, 429], statuses
    finally:
        for running in nodes:
            running.stop()
