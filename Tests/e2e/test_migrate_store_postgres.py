"""`reelhouse migrate-store --to postgres://…` on a real imported library and a real PostgreSQL 15
(the suite's private cluster, Tests/pykit/postgres.py): the counts it prints, its exit
codes, and one line on stderr when it cannot do the job."""
import re
from pathlib import Path

import pytest

from conftest import db, import_json, make_clip, reelhouse
from pykit import postgres as postgres_kit
from pykit.server import free_port

# What is copied is a SQLite library: with every library in PostgreSQL there is nothing to copy.
pytestmark = pytest.mark.sqlite_only("migrate-store --to copies a SQLite library, which this run has none of")


class Databases:
    """Fresh databases on the suite's PostgreSQL cluster (pykit.postgres), one per test."""

    def fresh_database(self) -> str:
        return postgres_kit.cluster().fresh_database()

    def query(self, url: str, sql: str) -> list[str]:
        return [value for row in postgres_kit.cluster().query(url, sql) for value in row]


@pytest.fixture(scope="module")
def postgres():
    return Databases()


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


def failure_line(result) -> str:
    """The one stderr line of a run that failed, as every refusal must be."""
    assert result.returncode != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_copies_the_library_prints_matching_counts_and_resumes_as_a_no_op(postgres, library):
    url = postgres.fresh_database()
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
    url = postgres.fresh_database()
    reelhouse(library, "migrate-store", "--to", url)
    postgres.query(url, "INSERT INTO tags (name, name_key) VALUES ('stray', 'stray')")
    result = reelhouse(library, "migrate-store", "--to", url, check=False)
    assert re.search(r"^tags\s+\d+\s+\d+\s+MISMATCH$", result.stdout, re.M), result.stdout
    line = failure_line(result)
    assert "row counts differ" in line and "tags" in line, line


def test_an_unreachable_database_is_one_line_without_the_password(library):
    result = reelhouse(library, "migrate-store", "--to", f"postgres://someone:hunter2@127.0.0.1:{free_port()}/nowhere", check=False)
    assert "cannot reach the database" in failure_line(result), result.stderr
    assert "hunter2" not in result.stderr + result.stdout


def test_a_database_already_in_use_is_refused(postgres, library):
    url = postgres.fresh_database()
    reelhouse(library, "migrate", "--database-url", url)
    postgres.query(url, "INSERT INTO users (name, name_key, role, password_hash, created_at) VALUES ('x', 'x', 'owner', 'h', 0)")
    result = reelhouse(library, "migrate-store", "--to", url, check=False)
    assert "already holds 1 row(s) in users" in failure_line(result), result.stderr
