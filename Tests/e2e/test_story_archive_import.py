"""Stories through `reelhouse import`: instaloader story archives recognised by their sidecars
(filed as the account's archived stories at their original times, plain posts left alone), and
a story video longer than a minute cut into one-minute items of one source, each encoded from
its own part. Importing the same folder again adds nothing."""
import json
import lzma
import subprocess
from pathlib import Path

from conftest import db, import_json, make_clip, make_image, post_media, reelhouse

STORY_VIDEO_AT = 1_700_000_000   # 2023-11-14 22:13:20 UTC
STORY_IMAGE_AT = 1_700_003_600   # 2023-11-14 23:13:20 UTC


def story_node(typename: str, taken_at: int, **extra) -> dict:
    """A StoryItem node shaped like instaloader's `save_metadata` output (its `_asdict`)."""
    return {
        "__typename": typename, "id": str(3_250_000_000_000_000_000 + taken_at),
        "dimensions": {"height": 320, "width": 180}, "display_url": "https://scontent.example/v/s.jpg",
        "expiring_at_timestamp": taken_at + 86_400, "is_video": typename == "GraphStoryVideo",
        "owner": {"id": "5550004", "username": "harbour.swimmer"}, "taken_at_timestamp": taken_at, **extra,
    }


def wrapped(node: dict, node_type: str) -> dict:
    return {"node": node, "instaloader": {"version": "4.13.1", "node_type": node_type}}


def instaloader_archive(folder: Path) -> Path:
    """`instaloader --stories harbour.swimmer` plus one of the profile's posts: `{date_utc}_UTC`
    names in a folder named after the profile, sidecars as .json and (the default) .json.xz."""
    profile = folder / "harbour.swimmer"
    make_clip(profile / "2023-11-14_22-13-20_UTC.mp4", seconds=2, size="180x320")
    (profile / "2023-11-14_22-13-20_UTC.json").write_text(
        json.dumps(wrapped(story_node("GraphStoryVideo", STORY_VIDEO_AT, video_duration=2.0), "StoryItem"), indent=4, sort_keys=True))
    make_image(profile / "2023-11-14_23-13-20_UTC.jpg", size="180x320")
    # instaloader compresses with lzma, no integrity check.
    with lzma.open(profile / "2023-11-14_23-13-20_UTC.json.xz", "wt", check=lzma.CHECK_NONE) as handle:
        json.dump(wrapped(story_node("GraphStoryImage", STORY_IMAGE_AT), "StoryItem"), handle, separators=(",", ":"))
    make_clip(profile / "2023-11-15_08-00-00_UTC.mp4", seconds=2, size="180x320", source="testsrc")
    post = {"__typename": "GraphVideo", "id": "3250000000000000099", "shortcode": "Cz9PostVid0", "is_video": True,
            "owner": {"id": "5550004", "username": "harbour.swimmer"}, "taken_at_timestamp": 1_700_035_200,
            "edge_media_to_caption": {"edges": [{"node": {"text": "Morning laps #swim"}}]}}
    (profile / "2023-11-15_08-00-00_UTC.json").write_text(json.dumps(wrapped(post, "Post")))
    return folder


def stories(data: Path) -> list[dict]:
    with db(data) as connection:
        rows = connection.execute(
            "SELECT p.id, p.kind, p.status, p.trim_start, p.trim_duration, s.author, s.user_id, s.posted_at, s.expires_at,"
            " s.archived, s.part, s.parts FROM story_items s JOIN posts p ON p.id = s.post_id ORDER BY s.posted_at").fetchall()
    return [dict(row) for row in rows]


def test_instaloader_stories_are_filed_as_the_accounts_archived_stories(data, tmp_path):
    folder = instaloader_archive(tmp_path / "downloads")

    report = import_json(data, folder)

    assert len(report["imported"]) == 3 and not report["rejected"], report
    filed = stories(data)
    assert [(row["kind"], row["posted_at"]) for row in filed] == [("video", STORY_VIDEO_AT), ("image", STORY_IMAGE_AT)]
    for row in filed:
        assert row["status"] == "story", row  # published into the tray, never a listing
        assert (row["author"], row["user_id"], row["archived"], row["part"], row["parts"]) == ("harbour.swimmer", None, 1, 0, 1)
        assert row["expires_at"] is None, "the library keeps archived stories by default"
    with db(data) as connection:
        post = connection.execute("SELECT status, description FROM posts WHERE id NOT IN (SELECT post_id FROM story_items)").fetchall()
    assert [tuple(row) for row in post] == [("ready", "Morning laps #swim")], "the profile's post stays a post"

    again = import_json(data, folder)
    assert again["imported"] == [] and len(again["skipped"]) == 3, again
    assert len(stories(data)) == 2


def test_a_library_that_does_not_keep_archived_stories_lets_them_expire(data, tmp_path):
    folder = instaloader_archive(tmp_path / "downloads")
    reelhouse(data, "user", "add", "dee", "--bcrypt-cost", "4", stdin="correct horse battery\n")  # creates the database
    with db(data) as connection:
        connection.execute("UPDATE libraries SET keep_archived_stories = 0")

    import_json(data, folder, extra=("--no-wait",), env={"REELHOUSE_STORY_LIFETIME_HOURS": "2"})

    filed = stories(data)
    assert len(filed) == 2
    for row in filed:
        assert row["expires_at"] - row["posted_at"] == 7200, "the lifetime counts from the original time"


def probed_duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return float(json.loads(out)["format"]["duration"])


def test_a_story_video_longer_than_a_minute_becomes_one_item_per_minute(data, tmp_path):
    reelhouse(data, "user", "add", "alice", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    clip = make_clip(tmp_path / "long" / "swim.mp4", seconds=130, size="96x160", rate=10)

    report = import_json(data, clip.parent, extra=("--story", "--as", "alice"))

    assert len(report["imported"]) == 3 and not report["rejected"], report
    parts = stories(data)
    assert [(row["part"], row["parts"]) for row in parts] == [(0, 3), (1, 3), (2, 3)]
    assert [(row["trim_start"], row["trim_duration"]) for row in parts] == [(0, 60), (60, 60), (120, 10)]
    steps = [round((later["posted_at"] - earlier["posted_at"]) * 1000) for earlier, later in zip(parts, parts[1:])]
    assert steps == [1, 1], "posted a millisecond apart, in order"
    with db(data) as connection:
        sources = {row[0] for row in connection.execute("SELECT path FROM post_sources").fetchall()}
    assert len(sources) == 1, "all parts read one kept source"
    for row, expected in zip(parts, (60, 60, 10)):
        assert row["status"] == "story" and row["author"] == "alice"
        media = post_media(data, row["id"])
        assert media["duration"] == expected
        encoded = probed_duration(data / "media" / str(row["id"]) / media["download"])
        assert abs(encoded - expected) < 0.5, (row["part"], encoded)

    again = import_json(data, clip.parent, extra=("--story", "--as", "alice"))
    assert again["imported"] == [] and len(again["skipped"]) == 3, again
    assert len(stories(data)) == 3


def test_a_story_that_names_no_account_is_imported_as_a_post_with_a_warning(data, tmp_path):
    # `instaloader :stories` pools everyone's stories in one folder; this node lost its owner.
    pooled = tmp_path / "downloads" / ":stories"
    make_image(pooled / "2023-11-14_23-13-20_UTC.jpg", size="180x320")
    node = story_node("GraphStoryImage", STORY_IMAGE_AT)
    del node["owner"]
    (pooled / "2023-11-14_23-13-20_UTC.json").write_text(json.dumps(wrapped(node, "StoryItem")))

    report = import_json(data, pooled.parent, extra=("--no-wait",))

    assert len(report["imported"]) == 1, report
    assert any("names no account" in line["reason"] for line in report["warnings"]), report
    assert stories(data) == []
