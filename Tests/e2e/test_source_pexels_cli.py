"""`reelhouse source pexels`: the real binary against a local server speaking Pexels' wire format
(never the real service), importing real clips through the pipeline."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import db, make_clip, reelhouse

KEY = "563492ad6f91700001000001-e2e"


class FakePexels:
    """`/videos/search`, `/videos/popular` and `/files/NAME` on 127.0.0.1, with the answers
    Pexels documents: the bare key in Authorization or 401, `X-Ratelimit-*` headers on 200s."""

    def __init__(self, files: dict[str, bytes], videos: list[dict]):
        self.files, self.videos, self.seen = files, videos, []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                url = urlparse(self.path)
                fake.seen.append((url.path, parse_qs(url.query), self.headers.get("Authorization")))
                if url.path.startswith("/files/"):
                    body = fake.files.get(url.path.removeprefix("/files/"))
                    return self.answer(200, body, "video/mp4") if body else self.answer(404, b'{"error":"Not Found"}')
                if self.headers.get("Authorization") != KEY:
                    return self.answer(401, b'{"error":"Unauthorized"}')
                query = parse_qs(url.query)
                page, per_page = int(query["page"][0]), int(query["per_page"][0])
                chunk = fake.videos[(page - 1) * per_page:page * per_page]
                listing = {"page": page, "per_page": per_page, "total_results": len(fake.videos),
                           "videos": [fake.video(v) for v in chunk]}
                if page * per_page < len(fake.videos):
                    listing["next_page"] = f"{fake.base}{url.path}?page={page + 1}&per_page={per_page}"
                self.answer(200, json.dumps(listing).encode(), headers={
                    "X-Ratelimit-Limit": "20000", "X-Ratelimit-Remaining": "19999", "X-Ratelimit-Reset": "1760000000"})

            def answer(self, status, body, kind="application/json", headers=None):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def video(self, v: dict) -> dict:
        return {"id": v["id"], "width": 180, "height": 320, "duration": 2,
                "url": f"https://www.pexels.com/video/{v['slug']}-{v['id']}/", "image": f"{self.base}/files/poster.jpg",
                "user": {"id": 7, "name": v["user"], "url": f"https://www.pexels.com/@{v['user'].lower().replace(' ', '-')}"},
                "video_files": [
                    {"id": 1, "quality": "uhd", "file_type": "video/mp4", "width": 2160, "height": 3840, "link": f"{self.base}/files/{v['id']}-4k.mp4"},
                    {"id": 2, "quality": "sd", "file_type": "video/mp4", "width": 180, "height": 320, "link": f"{self.base}/files/{v['id']}.mp4"},
                ], "video_pictures": []}

    def stop(self):
        self.server.shutdown()


@pytest.fixture
def pexels(tmp_path):
    files = {}
    for index, name in enumerate(["1", "2", "3"]):
        clip = make_clip(tmp_path / "clips" / f"{name}.mp4", size="180x320", seconds=1, frequency=300 + 100 * index)
        files[f"{name}.mp4"] = clip.read_bytes()
    del files["2.mp4"]  # listed, but its file is gone
    videos = [{"id": 1, "slug": "waves-at-dusk", "user": "Jane Doe"}, {"id": 2, "slug": "gone", "user": "Jane Doe"},
              {"id": 3, "slug": "city-lights", "user": "Ana Lima"}]
    server = FakePexels(files, videos)
    yield server
    server.stop()


def env(pexels, key=KEY):
    return {"REELHOUSE_PEXELS_URL": pexels.base, "REELHOUSE_PEXELS_KEY": key}


def test_searched_videos_are_imported_with_their_attribution(data, pexels):
    result = reelhouse(data, "source", "pexels", "--query", "ocean", "--limit", "3", env=env(pexels))

    assert "2 imported, 0 skipped, 0 rejected" in result.stdout, result.stdout
    assert "Pexels item 2: the file of Pexels video 2 is gone (HTTP 404)" in result.stderr, result.stderr
    with db(data) as connection:
        rows = connection.execute("SELECT id, status, uploader, username, source_url, description FROM posts ORDER BY id").fetchall()
        tags = {tag for (tag,) in connection.execute("SELECT tag FROM post_tags WHERE post_id = ?", (rows[0]["id"],))}
    assert [(r["status"], r["uploader"], r["username"], r["source_url"]) for r in rows] == [
        ("ready", "Jane Doe", "jane-doe", "https://www.pexels.com/video/waves-at-dusk-1/"),
        ("ready", "Ana Lima", "ana-lima", "https://www.pexels.com/video/city-lights-3/")]
    assert rows[0]["description"] == "Waves at dusk" and tags == {"ocean", "pexels"}
    api = [(path, query, auth) for path, query, auth in pexels.seen if not path.startswith("/files/")]
    assert [(path, query["query"], query["orientation"], auth) for path, query, auth in api] == [
        ("/videos/search", ["ocean"], ["portrait"], KEY)]
    assert all(auth is None for path, _, auth in pexels.seen if path.startswith("/files/")), "the key never goes to file hosts"
    assert not any(path.endswith("-4k.mp4") for path, _, _ in pexels.seen), "4K renditions are never fetched"
    assert not list((data / "publishing").glob("*")), "the staging folder is removed"
    assert KEY not in result.stdout + result.stderr


def test_as_stories_files_each_author_as_pexels_name(data, pexels):
    reelhouse(data, "source", "pexels", "--limit", "3", "--as-stories", env=env(pexels))

    with db(data) as connection:
        rows = connection.execute(
            "SELECT p.status, s.author, s.user_id, s.archived, s.expires_at - s.posted_at AS lifetime "
            "FROM story_items s JOIN posts p ON p.id = s.post_id ORDER BY p.id").fetchall()
    assert [(r["status"], r["author"], r["user_id"], r["archived"]) for r in rows] == [
        ("story", "pexels-jane-doe", None, 0), ("story", "pexels-ana-lima", None, 0)]
    assert all(abs(r["lifetime"] - 24 * 3600) < 1 for r in rows), "they expire like a person's stories"
    assert [path for path, _, _ in pexels.seen if not path.startswith("/files/")] == ["/videos/popular"]


def test_a_refused_key_is_one_clear_line_and_nothing_is_imported(data, pexels):
    result = reelhouse(data, "source", "pexels", "--query", "ocean", env=env(pexels, key="wrong-key-123"), check=False)

    assert result.returncode != 0
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert lines == ["Error: source pexels: the Pexels key was refused: check REELHOUSE_PEXELS_KEY (or --key)"], lines
    assert "wrong-key-123" not in result.stdout + result.stderr
    with db(data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 0
    assert not any(path.startswith("/files/") for path, _, _ in pexels.seen)
    assert not list((data / "publishing").glob("*"))


def test_without_a_key_nothing_is_asked(data, pexels, tmp_path):
    result = reelhouse(data, "source", "pexels", env={"REELHOUSE_PEXELS_URL": pexels.base, "REELHOUSE_PEXELS_KEY": ""}, check=False)

    assert result.returncode != 0 and "no Pexels key" in result.stderr, result.stderr
    assert pexels.seen == []
