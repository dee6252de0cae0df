"""`reelhouse migrate-store --to postgres://…` on a real imported library and a real PostgreSQL 15
(a private cluster started here, as the Swift suites start theirs): the counts it prints, its exit
codes, and one line on stderr when it cannot do the job."""
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import db, import_json, make_clip, reelhouse

BIN_DIRECTORY = Path(os.environ.get("REELHOUSE_PG_BIN", "/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """initdb + postgres on a free port under a temp folder, as `postgres` when run as root
    (initdb refuses root); our own child through `setpriv --pdeathsig`, so it dies with pytest."""

    def __init__(self, folder: Path):
        for binary in ("initdb", "postgres", "pg_isready", "psql", "createdb"):
            assert (BIN_DIRECTORY / binary).exists(), \
                f"{BIN_DIRECTORY / binary} not found: run `scripts/ensure-deps.sh test` (installs `postgresql`)"
        self.folder = folder
        as_user = []
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(folder, account.pw_uid, account.pw_gid)
            as_user = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
        data = folder / "data"
        initdb = subprocess.run([*as_user, str(BIN_DIRECTORY / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                                 "--no-sync", "-E", "UTF8", "--locale=C"], capture_output=True, text=True)
        assert initdb.returncode == 0, initdb.stderr
        self.port = free_port()
        log = open(folder / "server.log", "w")
        self.process = subprocess.Popen(
            [*(as_user or ["setpriv"]), "--pdeathsig", "INT", "--", str(BIN_DIRECTORY / "postgres"), "-D", str(data),
             "-p", str(self.port), "-k", str(folder), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while subprocess.run([str(BIN_DIRECTORY / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode != 0:
            assert self.process.poll() is None and time.monotonic() < deadline, (folder / "server.log").read_text()[-2000:]
            time.sleep(0.05)

    def fresh_database(self, name: str) -> str:
        self.client("createdb", name)
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def query(self, url: str, sql: str) -> list[str]:
        return self.client("psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url.rsplit("/", 1)[1], "-c", sql).stdout.split()

    def client(self, program: str, *args: str) -> subprocess.CompletedProcess:
        result = subprocess.run([str(BIN_DIRECTORY / program), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", *args],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result

    def stop(self):
        self.process.send_signal(2)
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def postgres():
    folder = Path(tempfile.mkdtemp(prefix="reelhouse-pg-e2e-"))
    cluster = Cluster(folder)
    yield cluster
    cluster.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """Two imported clips (one transcoded and published, one still queued) and an account."""
    folder = tmp_path_factory.mktemp("library")
    data = folder / "data"
    reelhouse(data, "user", "add", "ana", "--role", "owner", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    import_json(data, make_clip(folder / "first.mp4", size="320x568", seconds=2))
    import_json(data, make_clip(folder / "second.mp4", size="320x568", seconds=3), extra=("--no-wait",))
    return data


def printed_counts(stdout: str) -> dict[str, tuple[int, int]]:
    counts = {}
    for line in stdout.splitlines():
        match = re.fullmatch(r"(\w+)\s+(\d+)\s+(\d+)(\s+MISMATCH)?", line.strip())
        if match:
            counts[match[1]] = (int(match[2]), int(match[3]))
    return counts


def test_copies_the_library_prints_matching_counts_and_resumes_as_a_no_op(postgres, library):
    url = postgres.fresh_database("copied")
    result = reelhouse(library, "migrate-store", "--to", url)
    counts = printed_counts(result.stdout)
    with db(library) as sqlite:
        for table in ("users", "posts", "jobs", "post_keys", "tags", "post_tag_ids", "libraries", "library_grants"):
            expected = sqlite.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            assert counts[table] == (expected, expected), (table, result.stdout)
            assert postgres.query(url, f"SELECT count(*) FROM {table}") == [str(expected)]
    assert counts["posts"][0] == 2 and counts["users"][0] == 1
    assert "counts match" in result.stdout
    assert re.search(r"skipped post_search_fields: SQLite full-text index", result.stdout), result.stdout
    # The published post's key came across byte for byte.
    with db(library) as sqlite:
        key = sqlite.execute("SELECT hex(key) FROM post_keys").fetchone()[0].lower()
    assert postgres.query(url, "SELECT encode(key, 'hex') FROM post_keys") == [key]

    again = reelhouse(library, "migrate-store", "--to", url)
    assert "(0 rows copied by this run)" in again.stdout and printed_counts(again.stdout) == counts


def test_a_count_that_differs_fails_with_one_line(postgres, library):
    url = postgres.fresh_database("differs")
    reelhouse(library, "migrate-store", "--to", url)
    postgres.query(url, "INSERT INTO tags (name, name_key) VALUES ('stray', 'stray')")
    result = reelhouse(library, "migrate-store", "--to", url, check=False)
    assert result.returncode != 0
    assert re.search(r"^tags\s+\d+\s+\d+\s+MISMATCH$", result.stdout, re.M), result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "row counts differ" in lines[0] and "tags" in lines[0], result.stderr


def test_an_unreachable_database_is_one_line_without_the_password(library):
    result = reelhouse(library, "migrate-store", "--to", f"postgres://someone:hunter2@127.0.0.1:{free_port()}/nowhere", check=False)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the database" in lines[0], result.stderr
    assert "hunter2" not in result.stderr + result.stdout


def test_a_database_already_in_use_is_refused(postgres, library):
    url = postgres.fresh_database("inuse")
    reelhouse(library, "migrate", "--database-url", url)
    postgres.query(url, "INSERT INTO users (name, name_key, role, password_hash, created_at) VALUES ('x', 'x', 'owner', 'h', 0)")
    result = reelhouse(library, "migrate-store", "--to", url, check=False)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "already holds 1 row(s) in users" in lines[0], result.stderr
