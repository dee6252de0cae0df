"""Helpers for the end-to-end tests: real ffmpeg clips, the real `reelhouse` binary, the real
SQLite file it writes. What the web tests need too (the binary, the server launcher, clip makers,
HTTP) lives in Tests/pykit and is re-exported here under the names the tests import.

`REELHOUSE_E2E_DATABASE=postgres` (what `make e2e-postgres` sets) runs the tests on PostgreSQL:
each data folder gets a fresh database of a private cluster the suite starts itself
(pykit/postgres.py), named to every `reelhouse` run over that folder through
`REELHOUSE_DATABASE_URL` (`library_environment`). Tests that read the SQLite file are
SQLite's by nature: marked `sqlite_only`, they are deselected there (a skip would fail the
run: Tests/pykit/skip_policy.py)."""
import json
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared kit
from pykit.api import http  # noqa: E402,F401  (re-exported to the tests)
from pykit.cli import BIN, run as reelhouse  # noqa: E402,F401
from pykit.media import ffmpeg, make_clip, make_image  # noqa: E402,F401
from pykit.postgres import ON_POSTGRES, library_environment  # noqa: E402,F401
from pykit.server import LiveServer  # noqa: E402
from pykit.measurements import record_measurement  # noqa: E402,F401  (re-exported to the tests)
from pykit.plugins import register_shared_hooks  # noqa: E402


def pytest_configure(config):
    register_shared_hooks(config)
    config.addinivalue_line("markers", "sqlite_only(reason): SQLite's by nature (it reads the SQLite file itself, say); deselected on PostgreSQL")


def pytest_collection_modifyitems(config, items):
    if ON_POSTGRES:
        sqlite_only = [item for item in items if item.get_closest_marker("sqlite_only")]
        if sqlite_only:
            config.hook.pytest_deselected(items=sqlite_only)
            items[:] = [item for item in items if not item.get_closest_marker("sqlite_only")]


def import_json(data: Path, *paths: Path, extra: tuple = (), env: dict | None = None, check: bool = True) -> dict:
    result = reelhouse(data, "import", *map(str, paths), "--json", *extra, env=env, check=check)
    return json.loads(result.stdout)


def db(data: Path) -> sqlite3.Connection:
    if ON_POSTGRES:
        pytest.fail("this test reads the SQLite file: mark it sqlite_only so the PostgreSQL pass deselects it")
    connection = sqlite3.connect(data / "reelhouse.sqlite")
    connection.row_factory = sqlite3.Row
    return connection


def post_media(data: Path, post_id: int) -> dict:
    with db(data) as connection:
        row = connection.execute("SELECT media_json FROM posts WHERE id = ?", (post_id,)).fetchone()
    assert row is not None and row["media_json"], f"post {post_id} has no media"
    return json.loads(row["media_json"])


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


class RunningServer(LiveServer):
    """`reelhouse serve` on a free port over `data`, started and stopped by the test: cheap
    password hashing, the fastest x264 preset, and a generous 10 minutes to come up (a slow
    PostgreSQL start, a busy CI machine)."""

    def __init__(self, data: Path, env: dict | None = None, args: tuple = (), port: int | None = None):
        super().__init__(data, args=("--bcrypt-cost", "4", *args), env={"REELHOUSE_PRESET": "ultrafast", **(env or {})},
                         startup_timeout=600, ready_text="listening on", port=port)
        self.base = self.url
        self.password = self.printed_password()
