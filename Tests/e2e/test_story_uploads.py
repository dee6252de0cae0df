"""tus uploads posted as stories (`Upload-Metadata` `story` = `1`) against a real `reelhouse
serve`: filed as the uploader's story, posted when imported, expiring after the lifetime
setting; photos too; an item of its own even when the library has the clip as a post."""
import json
import time

import pytest

from conftest import RunningServer, db, make_clip, make_image
from test_uploads import create, error_code, metadata, wait_for_job

LIFETIME_HOURS = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = RunningServer(tmp_path_factory.mktemp("story-uploads") / "data",
                            env={"REELHOUSE_STORY_LIFETIME_HOURS": str(LIFETIME_HOURS)})
    running.api_key = running.key()
    running.member_key = running.add_user("maya")
    yield running
    running.stop()


def upload(server, data: bytes, key: str, **meta) -> tuple[int, int]:
    """Creation with the whole file in one request; the post and its transcode job."""
    status, headers, body = create(server, len(data), metadata(**meta), body=data, key=key)
    assert status == 201, body
    return int(headers["Upload-Post-Id"]), int(headers["Upload-Job-Id"])


def story_row(server, post_id: int) -> dict | None:
    with db(server.data) as connection:
        row = connection.execute(
            "SELECT p.kind, p.status, s.author, s.user_id, s.posted_at, s.expires_at, s.archived, s.part, s.parts"
            " FROM posts p LEFT JOIN story_items s ON s.post_id = p.id WHERE p.id = ?", (post_id,)).fetchone()
    return dict(row) if row else None


def user_id(server, name: str) -> int:
    with db(server.data) as connection:
        return connection.execute("SELECT id FROM users WHERE name = ?", (name,)).fetchone()[0]


@pytest.mark.sqlite_only("checks the rows in the SQLite file")
def test_a_video_uploaded_as_a_story_is_the_uploaders_story(server, tmp_path):
    clip = make_clip(tmp_path / "my day.mp4", seconds=2, size="180x320").read_bytes()
    before = time.time()
    post_id, job_id = upload(server, clip, server.member_key, filename="my day.mp4", filetype="video/mp4", story="1")
    assert wait_for_job(server, job_id)["state"] == "succeeded"

    row = story_row(server, post_id)
    assert row["kind"] == "video" and row["status"] == "story", row  # published into the tray, not the feed
    assert (row["author"], row["user_id"], row["archived"], row["part"], row["parts"]) == ("maya", user_id(server, "maya"), 0, 0, 1)
    assert before - 1 <= row["posted_at"] <= time.time() + 1
    assert abs(row["expires_at"] - row["posted_at"] - LIFETIME_HOURS * 3600) < 0.01


@pytest.mark.sqlite_only("checks the rows in the SQLite file")
def test_a_photo_uploaded_as_a_story(server, tmp_path):
    photo = make_image(tmp_path / "still.jpg", size="320x568").read_bytes()
    post_id, job_id = upload(server, photo, server.member_key, filename="still.jpg", filetype="image/jpeg", story="1")
    assert wait_for_job(server, job_id)["state"] == "succeeded"
    row = story_row(server, post_id)
    assert (row["kind"], row["status"], row["author"]) == ("image", "story", "maya"), row


@pytest.mark.sqlite_only("checks the rows in the SQLite file")
def test_a_clip_the_library_has_as_a_post_becomes_a_story_of_its_own(server, tmp_path):
    clip = make_clip(tmp_path / "both.mp4", seconds=2, size="180x320", source="testsrc").read_bytes()
    post_id, post_job = upload(server, clip, server.api_key, filename="both.mp4")
    story_id, story_job = upload(server, clip, server.api_key, filename="both.mp4", story="1")
    assert story_id != post_id
    for job in (post_job, story_job):
        assert wait_for_job(server, job)["state"] == "succeeded"
    assert story_row(server, post_id)["status"] == "ready" and story_row(server, post_id)["author"] is None
    assert story_row(server, story_id)["status"] == "story" and story_row(server, story_id)["author"] == "owner"
    with db(server.data) as connection:
        sources = connection.execute("SELECT COUNT(DISTINCT path) FROM post_sources WHERE post_id IN (?, ?)",
                                     (post_id, story_id)).fetchone()[0]
    assert sources == 1, "one kept file serves both"
    # Without `story`, the same bytes are still the existing post.
    again, _ = upload(server, clip, server.api_key, filename="both.mp4", story="0")
    assert again == post_id


@pytest.mark.parametrize("value", ["yes", "2", "true"])
def test_story_must_be_one_or_zero(server, value):
    status, _, body = create(server, 10, metadata(filename="x.mp4", story=value))
    assert status == 400 and error_code(body) == "bad_request", body
    assert "story must be 1" in json.loads(body)["error"]["message"]
