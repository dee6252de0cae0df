"""Playlists as AVPlayer expects them (Apple's HLS authoring specification for Apple devices,
RFC 8216), checked on what the server serves, not on the files behind it: every variant names
BANDWIDTH (at least the measured peak of its segments), AVERAGE-BANDWIDTH, CODECS, RESOLUTION
and FRAME-RATE; a media playlist is VOD with ENDLIST, its EXT-X-MAP comes before its EXT-X-KEY,
and every EXTINF, rounded, is within EXT-X-TARGETDURATION."""
import json
import re
from urllib.parse import urljoin

from conftest import RunningServer, http, import_json, make_clip

REQUIRED = ["BANDWIDTH", "AVERAGE-BANDWIDTH", "CODECS", "RESOLUTION", "FRAME-RATE"]


def attributes(line: str) -> dict:
    return {key: value.strip('"') for key, value in re.findall(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', line.split(":", 1)[1])}


def test_served_playlists_follow_apples_authoring_rules(tmp_path):
    clip = make_clip(tmp_path / "clips" / "authoring.mp4", size="720x1280", seconds=5, audio=True, source="mandelbrot")
    data = tmp_path / "data"
    assert len(import_json(data, clip)["imported"]) == 1
    server = RunningServer(data)
    try:
        key = {"api-key": server.key("owner")}
        status, _, body = http(server.base + "/api/v1/feed?limit=5", headers=key)
        assert status == 200, body
        item = json.loads(body)["items"][0]
        master_url = urljoin(server.base + "/", item["media"]["master"])
        status, headers, master = http(master_url)
        assert status == 200 and headers["Content-Type"] == "application/vnd.apple.mpegurl"
        lines = master.decode().splitlines()
        assert lines[0] == "#EXTM3U"
        variants = [(attributes(line), lines[index + 1]) for index, line in enumerate(lines) if line.startswith("#EXT-X-STREAM-INF:")]
        assert len(variants) >= 3, master
        for stream, uri in variants:
            assert all(name in stream for name in REQUIRED), stream
            assert int(stream["AVERAGE-BANDWIDTH"]) <= int(stream["BANDWIDTH"]), stream
            assert re.fullmatch(r"\d+x\d+", stream["RESOLUTION"]) and float(stream["FRAME-RATE"]) > 0, stream
            assert "avc1." in stream["CODECS"] and "mp4a.40.2" in stream["CODECS"], stream

            media_url = urljoin(master_url, uri)
            status, _, media = http(media_url)
            assert status == 200
            text = media.decode().splitlines()
            tags = [line.split(":", 1)[0] for line in text if line.startswith("#")]
            assert "#EXT-X-PLAYLIST-TYPE:VOD" in text and [line for line in text if line.strip()][-1] == "#EXT-X-ENDLIST"
            assert tags.index("#EXT-X-MAP") < tags.index("#EXT-X-KEY") < tags.index("#EXTINF"), tags
            target = int(next(line for line in text if line.startswith("#EXT-X-TARGETDURATION:")).split(":")[1])
            durations = [float(line[len("#EXTINF:"):].split(",")[0]) for line in text if line.startswith("#EXTINF:")]
            assert durations and all(round(duration) <= target for duration in durations), (target, durations)

            # BANDWIDTH is the peak: no segment (as served, encrypted) needs more bits per second.
            segments = [line for line in text if line and not line.startswith("#")]
            peak = 0
            for duration, segment in zip(durations, segments):
                status, _, payload = http(urljoin(media_url, segment))
                assert status == 200
                peak = max(peak, len(payload) * 8 / duration)
            assert peak <= int(stream["BANDWIDTH"]) * 1.01, (uri, peak, stream["BANDWIDTH"])
    finally:
        server.stop()
