"""Stories end to end: real clips imported as someone's stories (`import --story --as`), served by
the real binary, watched through the stories API with the signed media a player loads."""
import json

from conftest import RunningServer, http, import_json, make_clip, make_image, reelhouse
from test_source_pexels_cli import env as pexels_env, pexels  # noqa: F401  (the local Pexels-speaking server fixture)


def get(server, path, key, method="GET", body=None):
    status, _, payload = http(server.base + path, method, {"api-key": key}, body, timeout=30)
    return status, (json.loads(payload) if payload and payload[:1] in (b"{", b"[") else payload)


def test_imported_stories_play_and_their_seen_marks_last(tmp_path):
    server = RunningServer(tmp_path / "data")
    try:
        ana = server.add_user("ana")
        viewer = server.add_user("viewer")
        folder = tmp_path / "stories"
        make_clip(folder / "morning.mp4", seconds=2, size="180x320")
        make_image(folder / "still.jpg", size="320x568")
        report = import_json(server.data, folder, extra=("--story", "--as", "ana"))
        assert len(report["imported"]) == 2, report

        status, tray = get(server, "/api/v1/stories", viewer)
        assert status == 200 and [entry["user"] for entry in tray["tray"]] == ["ana"], tray
        entry = tray["tray"][0]
        assert entry["items_count"] == 2 and not entry["all_seen"] and not entry["is_me"] and entry["avatar"]["url"].startswith("/img/")
        assert tray["next_cursor"] is None

        status, page = get(server, "/api/v1/stories/ana", viewer)
        assert status == 200 and page["first_unseen"] == 0, page
        kinds = {item["kind"]: item for item in page["items"]}
        assert set(kinds) == {"photo", "video"}, page
        assert kinds["photo"]["duration"] == 5 and kinds["photo"]["media"]["images"], kinds["photo"]
        video = kinds["video"]
        assert 1.5 <= video["duration"] <= 2.5 and "view_count" not in video
        # What a player loads first: the master playlist, then the prefetch rung's first bytes.
        status, _, master = http(server.base + video["media"]["master"])
        assert status == 200 and master.startswith(b"#EXTM3U"), master[:40]
        prefetch = video["media"]["prefetch"]
        for url in (prefetch["playlist"], prefetch["init_segment"], prefetch["first_segment"]):
            status, _, body = http(server.base + url)
            assert status == 200 and body, url
        status, _, thumbnail = http(server.base + entry["avatar"]["url"])
        assert status == 200 and thumbnail[:2] == b"\xff\xd8", "the ring's picture is a JPEG"
        # Never a post: not in the feed.
        status, feed = get(server, "/api/v1/feed?limit=50", viewer)
        assert status == 200 and feed["items"] == [], feed

        ids = [item["id"] for item in page["items"]]
        status, seen = get(server, "/api/v1/stories/seen", viewer, "POST", {"items": ids})
        assert status == 200 and seen == {"accepted": 2, "ignored": 0}, seen
        status, _ = get(server, f"/api/v1/stories/items/{ids[0]}/like", viewer, "POST")
        assert status == 200
        status, tray = get(server, "/api/v1/stories", viewer)
        assert tray["tray"][0]["all_seen"], tray

        status, viewers = get(server, f"/api/v1/stories/items/{ids[0]}/viewers", ana)
        assert status == 200 and [(v["user"], v["liked"]) for v in viewers["viewers"]] == [("viewer", True)], viewers
        assert get(server, f"/api/v1/stories/items/{ids[0]}/viewers", viewer)[0] == 403

        # A new item after everything was seen lights the ring again, at the new item.
        make_image(tmp_path / "later" / "evening.jpg", size="320x568", source="testsrc")
        import_json(server.data, tmp_path / "later", extra=("--story", "--as", "ana"))
        status, tray = get(server, "/api/v1/stories", viewer)
        assert not tray["tray"][0]["all_seen"] and tray["tray"][0]["first_unseen"] == 2, tray

        status, kept = get(server, f"/api/v1/stories/items/{video['id']}/keep", ana, "POST")
        assert status == 200 and kept["kept"] is True, kept
        status, feed = get(server, "/api/v1/feed?limit=50", viewer)
        assert [item["id"] for item in feed["items"]] == [video["id"]], "a kept story is a post of the library"

        photo = kinds["photo"]["id"]
        assert get(server, f"/api/v1/stories/items/{photo}", viewer, "DELETE")[0] == 403
        assert get(server, f"/api/v1/stories/items/{photo}", ana, "DELETE")[0] == 204
        assert not (server.data / "media" / str(photo)).exists(), "its media went with it"
        status, archive = get(server, "/api/v1/stories/archive", ana)
        assert status == 200 and photo not in [item["id"] for item in archive["items"]] and len(archive["items"]) == 2
    finally:
        server.stop()


def test_pexels_stories_credit_their_author(tmp_path, pexels):
    """`source pexels --as-stories` against the local Pexels-speaking server: each author's tray
    shows the credit Pexels asks for (the photographer, their profile, the item's page)."""
    server = RunningServer(tmp_path / "data")
    try:
        viewer = server.add_user("viewer")
        reelhouse(server.data, "source", "pexels", "--limit", "3", "--as-stories", env=pexels_env(pexels))
        status, page = get(server, "/api/v1/stories/pexels-jane-doe", viewer)
        assert status == 200, page
        assert [item["attribution"] for item in page["items"]] == [{
            "source": "Pexels", "author": "Jane Doe", "author_url": "https://www.pexels.com/@jane-doe",
            "url": "https://www.pexels.com/video/waves-at-dusk-1/"}], page
    finally:
        server.stop()
