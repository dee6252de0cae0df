"""Published media in an S3 bucket, end to end through the real binary: `reelhouse import` with
REELHOUSE_STORAGE=s3://… publishes a post's files to a real SeaweedFS (which checks every SigV4
signature), `reelhouse serve` plays them from there, and deleting the post empties the bucket.
A wrong secret is a storage error, never a silent success."""
import json
import shutil

import pytest

from conftest import http, make_clip, reelhouse
from pykit.seaweed import ACCESS_KEY, SECRET_KEY, Seaweed
from pykit.server import LiveServer

BUCKET = "reel-e2e"


@pytest.fixture(scope="module")
def seaweed(tmp_path_factory):
    running = Seaweed(tmp_path_factory.mktemp("seaweed"), BUCKET)
    try:
        yield running.endpoint, running.client
    finally:
        running.stop()


def keys(client, prefix: str) -> list[str]:
    return sorted(item["Key"] for item in client.list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("Contents", []))


def test_import_serve_and_delete_through_the_bucket(seaweed, tmp_path):
    endpoint, client = seaweed
    env = {"REELHOUSE_STORAGE": f"s3://{BUCKET}/lib?endpoint={endpoint}&region=us-east-1",
           "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    data = tmp_path / "data"
    reelhouse(data, "import", str(make_clip(tmp_path / "clip.mp4", seconds=3)), env=env)

    published = keys(client, "lib/media/1/")
    assert "lib/media/1/.published" in published and "lib/media/1/master.m3u8" in published
    assert any(key.endswith(".m4s") for key in published)
    assert keys(client, "lib/staging/") == []
    assert not any((data / "media").iterdir()), "nothing is published to the data folder"

    reelhouse(data, "user", "add", "ana", "--role", "owner", stdin="pass-word-123\n", env=env)
    key = reelhouse(data, "key", "create", "--user", "ana", env=env).stdout.strip()
    server = LiveServer(data, env=env)
    try:
        status, _, body = http(f"{server.url}/api/v1/videos/1", headers={"api-key": key})
        assert status == 200
        media = json.loads(body)["media"]
        master = media["master"]
        base = master.rsplit("/", 1)[0]
        status, headers, playlist = http(server.url + master)
        assert status == 200 and playlist.startswith(b"#EXTM3U")
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        rendition = next(line for line in playlist.decode().splitlines() if line.endswith(".m3u8"))
        status, _, media_playlist = http(f"{server.url}{base}/{rendition}")
        assert status == 200
        folder = rendition.rsplit("/", 1)[0]
        segment = next(line for line in media_playlist.decode().splitlines() if line.endswith(".m4s"))
        stored = client.get_object(Bucket=BUCKET, Key=f"lib/media/1/{folder}/{segment}")["Body"].read()
        status, headers, served = http(f"{server.url}{base}/{folder}/{segment}")
        assert status == 200 and served == stored
        status, headers, part = http(f"{server.url}{base}/{folder}/{segment}", headers={"Range": "bytes=10-29"})
        assert status == 206 and part == stored[10:30] and headers["Content-Range"] == f"bytes 10-29/{len(stored)}"
        status, _, _ = http(f"{server.url}{base}/{folder}/{segment}", headers={"If-None-Match": headers["ETag"]})
        assert status == 304
        status, _, poster = http(server.url + media["poster"]["url"])
        assert status == 200 and poster[:2] == b"\xff\xd8"

        status, _, _ = http(f"{server.url}/api/v1/videos/1", method="DELETE", headers={"api-key": key})
        assert status == 204
        assert keys(client, "lib/media/1/") == []
    finally:
        server.stop()


def test_a_wrong_secret_is_a_storage_error(seaweed, tmp_path):
    endpoint, client = seaweed
    good = {"REELHOUSE_STORAGE": f"s3://{BUCKET}/wrong?endpoint={endpoint}",
            "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    data = tmp_path / "data"
    reelhouse(data, "import", str(make_clip(tmp_path / "clip.mp4", seconds=2)), env=good)
    assert "wrong/media/1/.published" in keys(client, "wrong/media/1/")
    reelhouse(data, "user", "add", "ana", "--role", "owner", stdin="pass-word-123\n", env=good)
    key = reelhouse(data, "key", "create", "--user", "ana", env=good).stdout.strip()
    server = LiveServer(data, env={**good, "AWS_SECRET_ACCESS_KEY": SECRET_KEY + "-wrong"})
    try:
        status, _, body = http(f"{server.url}/api/v1/videos/1", headers={"api-key": key})
        assert status == 200
        status, _, body = http(server.url + json.loads(body)["media"]["master"])
        assert status == 500 and json.loads(body)["error"]["code"] == "storage_error"
        assert SECRET_KEY not in server.output()
    finally:
        server.stop()


def test_migrate_store_media_to_a_bucket_then_serve_from_it(seaweed, tmp_path):
    """A library made on disk moves to the bucket with `migrate-store --media-to`; a second run
    copies nothing; serve then plays it from the bucket."""
    endpoint, client = seaweed
    location = f"s3://{BUCKET}/moved?endpoint={endpoint}"
    keys_env = {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    data = tmp_path / "data"
    reelhouse(data, "import", str(make_clip(tmp_path / "one.mp4", seconds=2)), str(make_clip(tmp_path / "two.mp4", seconds=2, frequency=660)))
    assert sorted(p.name for p in (data / "media").iterdir()) == ["1", "2"]

    missing = reelhouse(data, "migrate-store", "--media-to", location, check=False,
                        env={"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""})
    assert missing.returncode != 0 and "AWS_ACCESS_KEY_ID" in missing.stderr

    first = reelhouse(data, "migrate-store", "--media-to", location, env=keys_env).stdout
    assert "posts: 2 copied, 0 already there" in first
    for post in ("1", "2"):
        local = sorted(str(p.relative_to(data / "media" / post)) for p in (data / "media" / post).rglob("*") if p.is_file())
        assert keys(client, f"moved/media/{post}/") == sorted([f"moved/media/{post}/{name}" for name in local] + [f"moved/media/{post}/.published"])
    again = reelhouse(data, "migrate-store", "--media-to", location, env=keys_env).stdout
    assert "posts: 0 copied, 2 already there" in again

    reelhouse(data, "user", "add", "ana", "--role", "owner", stdin="pass-word-123\n")
    key = reelhouse(data, "key", "create", "--user", "ana").stdout.strip()
    # Served from the bucket only: the local copies are gone.
    shutil.rmtree(data / "media")
    (data / "media").mkdir()
    server = LiveServer(data, env={"REELHOUSE_STORAGE": location, **keys_env})
    try:
        status, _, body = http(f"{server.url}/api/v1/videos/2", headers={"api-key": key})
        assert status == 200
        status, _, playlist = http(server.url + json.loads(body)["media"]["master"])
        assert status == 200 and playlist.startswith(b"#EXTM3U")
    finally:
        server.stop()
