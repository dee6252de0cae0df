"""`reelhouse collection`: curate collections from a shell, one clear line per mistake."""
import pytest

from conftest import db, reelhouse


def lines(result):
    return [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def refused(data, *args):
    """Runs a command that must fail: non-zero exit, one line saying why."""
    result = reelhouse(data, "collection", *args, check=False, timeout=60)
    assert result.returncode != 0, (args, result.stdout)
    assert len(lines(result)) == 1, (args, result.stdout, result.stderr)
    return lines(result)[0]


def members(data, name):
    with db(data) as connection:
        return [row[0] for row in connection.execute(
            "SELECT i.post_id FROM collection_items i JOIN collections c ON c.id = i.collection_id "
            "WHERE c.name = ? ORDER BY i.position", (name,))]


@pytest.mark.sqlite_only("bench-seed writes synthetic posts into a SQLite library only")
def test_collection_commands_curate_and_refuse_bad_input(data):
    reelhouse(data, "bench-seed", "--count", "4")
    assert reelhouse(data, "collection", "list").stdout.strip() == "no collections"
    assert "created collection Trips" in reelhouse(data, "collection", "create", "Trips").stdout
    assert reelhouse(data, "collection", "add", "Trips", "3", "1", "3").stdout.strip() == "Trips holds 2 ready posts"
    assert reelhouse(data, "collection", "add", "trips", "4").stdout.strip() == "Trips holds 3 ready posts"
    assert members(data, "Trips") == [3, 1, 4]
    assert reelhouse(data, "collection", "remove", "Trips", "1").stdout.strip() == "Trips holds 2 ready posts"
    assert members(data, "Trips") == [3, 4]
    reelhouse(data, "collection", "create", "Cats")
    listed = reelhouse(data, "collection", "list").stdout.splitlines()
    assert [line.split("\t")[2] for line in listed] == ["Cats", "Trips"]
    assert listed[1].split("\t")[1] == "2 posts"

    assert "no collection named Nope" in refused(data, "add", "Nope", "1")
    assert "x is not a post id" in refused(data, "add", "Trips", "1", "x")
    assert "no post 99" in refused(data, "add", "Trips", "2", "99")
    assert members(data, "Trips") == [3, 4], "a refused add changes nothing"
    assert "already exists" in refused(data, "create", "CATS")
    assert "already exists" in refused(data, "rename", "Trips", "cats")
    assert "1 to 100 characters" in refused(data, "create", "   ")
    assert "at least one post id" in refused(data, "remove", "Trips")

    assert "renamed Trips to Road trips" in reelhouse(data, "collection", "rename", "Trips", "Road trips").stdout
    assert "deleted collection Cats" in reelhouse(data, "collection", "delete", "Cats").stdout
    assert "no collection named Cats" in refused(data, "delete", "Cats")
    assert [line.split("\t")[2] for line in reelhouse(data, "collection", "list").stdout.splitlines()] == ["Road trips"]
