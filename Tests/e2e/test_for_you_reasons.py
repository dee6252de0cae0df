"""For You's reasons for one person alone on a server (issue 29): after a like and a few views,
sent as the web client sends them, the next pages say "because you liked “…”" — with the
`recs.neighbors` job rebuilt from those events, as on a real server, and not only when a test
loads neighbours by hand. Alone, a person's co-visitation neighbours are the posts they watched
themselves, all already seen, so the reason has to come from what the like taught (its tags)."""
import json
import time
import uuid
from datetime import datetime, timezone

from conftest import RunningServer, http, import_json, make_clip

# (file stem, description, tags): three tastes of four posts each, so whichever video is liked,
# posts with its tag are still unseen after the first page.
LIBRARY = [
    ("sunrise", "Colour bars at sunrise", ["retro", "broadcast"]),
    ("pattern", "The classic test pattern", ["retro"]),
    ("portrait", "Another test pattern", ["retro"]),
    ("card", "Test card at noon", ["retro", "broadcast"]),
    ("gradient", "Slow gradients", ["calm"]),
    ("waves", "Waves on a pond", ["calm", "water"]),
    ("noise", "Noise for a minute", ["calm"]),
    ("rain", "Rain on a window", ["calm", "water"]),
    ("rule110", "Rule 110 growing", ["math"]),
    ("mandelbrot", "Mandelbrot zoom", ["math", "fractal"]),
    ("julia", "Julia set", ["math", "fractal"]),
    ("life", "Game of life", ["math"]),
]
PAGE = 4


def event(kind: str, post_id: int, **fields) -> dict:
    """One event as Web/js/events builds it (a UUID and an ISO 8601 instant)."""
    at = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"event_id": str(uuid.uuid4()), "type": kind, "post_id": post_id, "at": at, **fields}


def test_a_like_leads_to_because_you_liked_for_a_person_alone(tmp_path, data):
    folder = tmp_path / "clips"
    for index, (stem, description, tags) in enumerate(LIBRARY):
        make_clip(folder / f"{stem}.mp4", size="180x320", seconds=2, frequency=300 + 40 * index)
        (folder / f"{stem}.info.json").write_text(json.dumps({
            "id": f"{stem}-{index}", "extractor": "generic", "description": description, "tags": tags}))
    assert len(import_json(data, folder)["imported"]) == len(LIBRARY)
    server = RunningServer(data, env={"REELHOUSE_NEIGHBOR_REFRESH_MINUTES": "0.05"})
    try:
        headers = {"Authorization": f"Bearer {server.key()}"}

        def call(method: str, path: str, body: dict | None = None) -> dict:
            status, _, raw = http(server.base + path, method, headers=headers, body=body)
            assert status in (200, 204), (method, path, status, raw)
            return json.loads(raw) if raw else {}

        def page(cursor: str | None) -> dict:
            return call("GET", f"/api/v1/feed?mode=for_you&limit={PAGE}" + (f"&cursor={cursor}" if cursor else ""))

        # The first page, watched to the end item by item; the first video is liked (its own
        # route, then the event, as Web/js/feed/social.js does).
        first = page(None)
        liked = next(item for item in first["items"] if item["kind"] == "video")
        for item in first["items"]:
            events = [event("impression", item["id"])]
            if item is liked:
                call("POST", f"/api/v1/videos/{item['id']}/favorite")
                events.append(event("favorite", item["id"]))
            duration = round((item.get("duration") or 2) * 1000)
            events.append(event("view", item["id"], watched_ms=duration, duration_ms=duration, loops=0))
            call("POST", "/api/v1/events", {"events": events})

        # The neighbour table rebuilt from this person's events (a lone person's co-visits).
        deadline = time.monotonic() + 60
        while "people=1 " not in server.output() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "people=1 " in server.output(), server.output()[-3000:]

        served, cursor = [], first["next_cursor"]
        for _ in range(2):
            next_page = page(cursor)
            served += next_page["items"]
            cursor = next_page["next_cursor"]
        reasons = [(item["id"], item.get("reason_kind"), item.get("reason")) for item in served]
        expected = f"because you liked “{liked['description']}”"
        assert any(kind == "liked" and reason == expected for _, kind, reason in reasons), (liked["id"], reasons)
    finally:
        server.stop()
