"""`reelhouse import PATH --story --as USER`: clips filed as someone's stories, never as posts."""
import time

from conftest import db, import_json, make_clip, make_image, reelhouse


def lines(result):
    return [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def test_story_import_files_each_item_as_the_users_story(data, tmp_path):
    reelhouse(data, "user", "add", "alice", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    folder = tmp_path / "stories"
    make_clip(folder / "morning.mp4", seconds=2, size="180x320")
    make_image(folder / "one.jpg", size="320x568")
    make_image(folder / "two.jpg", size="320x568", source="testsrc")
    before = time.time()

    report = import_json(data, folder, extra=("--story", "--as", "ALICE"))

    assert len(report["imported"]) == 3, report  # two images: two items, not one carousel
    with db(data) as connection:
        rows = connection.execute(
            "SELECT p.kind, p.status, s.author, s.user_id, s.posted_at, s.expires_at, s.archived, s.expired "
            "FROM story_items s JOIN posts p ON p.id = s.post_id ORDER BY p.kind").fetchall()
        alice = connection.execute("SELECT id FROM users WHERE name = 'alice'").fetchone()[0]
    assert sorted(row["kind"] for row in rows) == ["image", "image", "video"]
    for row in rows:
        assert row["status"] == "story", dict(row)  # published, but never listed
        assert (row["author"], row["user_id"], row["archived"], row["expired"]) == ("alice", alice, 0, 0)
        assert before - 1 <= row["posted_at"] <= time.time() + 1
        assert abs(row["expires_at"] - row["posted_at"] - 24 * 3600) < 1, "the default lifetime is 24 h"


def test_story_lifetime_comes_from_the_setting(data, tmp_path):
    reelhouse(data, "user", "add", "bo", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    make_image(tmp_path / "s" / "still.jpg", size="320x568")
    import_json(data, tmp_path / "s", extra=("--story", "--as", "bo"), env={"REELHOUSE_STORY_LIFETIME_HOURS": "1.5"})
    with db(data) as connection:
        (lifetime,) = connection.execute("SELECT expires_at - posted_at FROM story_items").fetchone()
    assert abs(lifetime - 5400) < 1


def test_story_flags_are_refused_alone_or_for_a_stranger(data, tmp_path):
    make_image(tmp_path / "s" / "still.jpg", size="320x568")
    for args, says in [
        (("--story",), "--story needs --as USER"),
        (("--as", "alice"), "add --story"),
        (("--story", "--as", "nobody"), "no user named 'nobody'"),
    ]:
        result = reelhouse(data, "import", str(tmp_path / "s"), *args, check=False, timeout=60)
        assert result.returncode != 0, args
        assert len(lines(result)) == 1 and says in lines(result)[0], (args, lines(result))
    reelhouse(data, "user", "add", "cy", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    bad = reelhouse(data, "import", str(tmp_path / "s"), "--story", "--as", "cy", check=False, timeout=60,
                    env={"REELHOUSE_STORY_LIFETIME_HOURS": "soon"})
    assert bad.returncode != 0 and len(lines(bad)) == 1 and "REELHOUSE_STORY_LIFETIME_HOURS" in lines(bad)[0], lines(bad)
    with db(data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 0, "nothing imported on a refusal"
