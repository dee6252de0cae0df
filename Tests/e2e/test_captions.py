"""Subtitle sidecars through the real import and the real server: yt-dlp's `clip.en.vtt`, a
SubRip `clip.pt.srt` (BOM, CRLF, numbers) and a malformed `clip.de.vtt` next to one clip. The
good ones become HLS subtitle renditions served under the post's signed URLs, the bad one is a
warning, and the video is imported either way."""
import json
import subprocess

from conftest import RunningServer, http, import_json, make_clip, post_media

EN_VTT = """WEBVTT
Kind: captions
Language: en

00:00:00.200 --> 00:00:01.500 align:start position:0%
Crème brûlée — 日本語

00:00:01.800 --> 00:00:02.600
across the boundary
"""

PT_SRT = "\ufeff1\r\n00:00:03,000 --> 00:00:04,000\r\nOlá, mundo — ação\r\n\r\n"
BROKEN_VTT = "1\n00:00:01,000 --> 00:00:02,000\nthis is SubRip wearing a .vtt name\n"


def get(url: str, key: str):
    return http(url, headers={"api-key": key}, timeout=30)


def test_subtitle_sidecars_become_signed_hls_renditions(tmp_path, data):
    folder = tmp_path / "reels"
    make_clip(folder / "clip.mp4", size="360x640", seconds=5)
    (folder / "clip.en.vtt").write_text(EN_VTT, encoding="utf-8")
    (folder / "clip.pt.srt").write_bytes(PT_SRT.encode("utf-8"))
    (folder / "clip.de.vtt").write_text(BROKEN_VTT, encoding="utf-8")

    report = import_json(data, folder)
    assert len(report["imported"]) == 1, report
    post_id = report["imported"][0]["id"]
    warnings = [w for w in report["warnings"] if "clip.de.vtt" in w["reason"]]
    assert warnings and "does not start with WEBVTT" in warnings[0]["reason"], report["warnings"]

    media = post_media(data, post_id)
    tracks = {track["tag"]: track for track in media["subtitles"]}
    assert sorted(tracks) == ["en", "pt"]
    assert tracks["pt"]["name"] == "Portuguese" and tracks["en"]["language"] == "en"
    video_segments = len(media["renditions"][0]["segments"])
    assert all(len(track["segments"]) == video_segments for track in tracks.values())

    server = RunningServer(data)
    try:
        key = server.key()
        status, _, body = get(f"{server.base}/api/v1/videos/{post_id}", key)
        assert status == 200, body
        item = json.loads(body)
        assert item["captions"] == [{"language": "en", "name": "English"}, {"language": "pt", "name": "Portuguese"}]

        master_url = server.base + item["media"]["master"]
        status, headers, body = get(master_url, key)
        master = body.decode()
        assert status == 200
        assert ('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,'
                'AUTOSELECT=YES,URI="subtitles/en/index.m3u8"') in master
        assert 'NAME="Portuguese",LANGUAGE="pt"' in master
        stream_lines = [line for line in master.splitlines() if line.startswith("#EXT-X-STREAM-INF")]
        assert stream_lines and all('SUBTITLES="subs"' in line for line in stream_lines)

        base = master_url.rsplit("/", 1)[0]
        status, headers, body = get(f"{base}/subtitles/en/index.m3u8", key)
        assert status == 200 and headers["Content-Type"] == "application/vnd.apple.mpegurl"
        segment_names = [line for line in body.decode().splitlines() if line.endswith(".vtt")]
        assert len(segment_names) == video_segments
        # The video's segments, short ones first (0.5, 0.5, 1 s, then 2 s): the one ending at 2 s.
        durations = [float(line.split(":")[1].split(",")[0]) for line in body.decode().splitlines() if line.startswith("#EXTINF:")]
        ends = [sum(durations[:index + 1]) for index in range(len(durations))]
        before_two = next(index for index, end in enumerate(ends) if end > 1.999)
        texts = []
        for name in segment_names:
            status, headers, body = get(f"{base}/subtitles/en/{name}", key)
            assert status == 200 and headers["Content-Type"].startswith("text/vtt")
            texts.append(body.decode("utf-8"))
        assert "Crème brûlée — 日本語" in texts[0]
        # 1.8–2.6 s spans the 2 s boundary: it is in both segments.
        assert "across the boundary" in texts[before_two] and "across the boundary" in texts[before_two + 1]
        assert "align:start position:0%" in texts[0]

        # The map puts subtitle time 0 where the video's first frame is on the fMP4 timeline.
        top = sorted(media["renditions"], key=lambda r: r["width"] * r["height"])[-1]["playlist"]
        probe = subprocess.run(
            ["ffprobe", "-v", "error", "-allowed_extensions", "ALL", "-select_streams", "v:0",
             "-show_entries", "stream=start_time", "-of", "csv=p=0", "-headers", f"api-key: {key}\r\n", f"{base}/{top}"],
            capture_output=True, text=True, timeout=60, check=True)
        first_frame = float(probe.stdout.split()[0])
        maps = {line for text in texts for line in text.splitlines() if line.startswith("X-TIMESTAMP-MAP=")}
        assert maps == {f"X-TIMESTAMP-MAP=MPEGTS:{round(first_frame * 90000)},LOCAL:00:00:00.000"}

        status, _, body = get(f"{base}/subtitles/pt/index.m3u8", key)
        pt_segments = [line for line in body.decode().splitlines() if line.endswith(".vtt")]
        pt_text = "".join(get(f"{base}/subtitles/pt/{name}", key)[2].decode("utf-8") for name in pt_segments)
        assert "00:00:03.000 --> 00:00:04.000\nOlá, mundo — ação" in pt_text
        assert "\ufeff" not in pt_text and "\r" not in pt_text

        # Only listed names are served: no German, no way out of the folder, no unsigned access.
        for path in ("subtitles/de/index.m3u8", "subtitles/en/../../key", "subtitles/en/%2e%2e/master.m3u8",
                     "subtitles/en/seg_99999.vtt", "subtitles/en"):
            assert get(f"{base}/{path}", key)[0] == 404, path
        unsigned = f"{server.base}/media/not-a-token/{post_id}/subtitles/en/index.m3u8"
        assert get(unsigned, key)[0] == 403
    finally:
        server.stop()
