"""Real imports through the real binary: generated clips in, parsed playlists and decoded
frames out."""
import json
import shutil
import subprocess
from pathlib import Path

import m3u8
import pytest

from conftest import db, files_under, import_json, make_clip, make_image, post_media, ffmpeg


def framemd5(playlist: Path) -> list[str]:
    """Per-frame hashes of the video decoded from an (optionally encrypted) HLS playlist."""
    out = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-allowed_extensions", "ALL",
         "-i", str(playlist), "-map", "0:v", "-f", "framemd5", "-"],
        capture_output=True, text=True, check=True,
    ).stdout
    return [line.rsplit(",", 1)[-1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def decodable_copy(data: Path, post_id: int, into: Path) -> Path:
    """Copies a published post and puts its key where the relative key URI (`../key`) points,
    the way the server answers it, so ffmpeg can read it from disk."""
    shutil.copytree(data / "media" / str(post_id), into)
    with db(data) as connection:
        row = connection.execute("SELECT key FROM post_keys WHERE post_id = ?", (post_id,)).fetchone()
    if row is not None:
        (into / "key").write_bytes(row["key"])
    return into


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """One import of the five reference inputs, shared by the checks below."""
    root = tmp_path_factory.mktemp("lib")
    clips = root / "clips"
    make_clip(clips / "portrait.mp4", size="720x1280", seconds=4, audio=True)
    make_clip(clips / "landscape.mp4", size="640x360", seconds=3, audio=False, source="mandelbrot")
    # A phone clip: stored landscape, displayed portrait through rotation metadata.
    make_clip(root / "raw_rotated.mp4", size="640x360", seconds=3, audio=True, source="smptebars")
    ffmpeg("-display_rotation", "90", "-i", str(root / "raw_rotated.mp4"), "-c", "copy", str(clips / "rotated.mp4"))
    make_image(clips / "still.png", size="1200x900")
    ffmpeg("-f", "lavfi", "-i", "testsrc=size=200x150:rate=10:duration=2", str(clips / "anim.gif"))
    data = root / "data"
    report = import_json(data, clips)
    return data, report


def by_name(report: dict, name: str) -> dict:
    return next(item for item in report["imported"] if item["path"].endswith(name))


def test_every_reference_input_is_imported(library):
    data, report = library
    assert report["rejected"] == []
    assert sorted(Path(i["path"]).name for i in report["imported"]) == \
        ["anim.gif", "landscape.mp4", "portrait.mp4", "rotated.mp4", "still.png"]
    with db(data) as connection:
        statuses = {r["status"] for r in connection.execute("SELECT status FROM posts")}
    assert statuses == {"ready"}
    assert files_under(data / "tmp") == set()


def test_playlists_parse_with_an_independent_parser(library):
    data, report = library
    for name in ["portrait.mp4", "landscape.mp4", "rotated.mp4", "anim.gif"]:
        post_id = by_name(report, name)["id"]
        folder = data / "media" / str(post_id)
        master = m3u8.load(str(folder / "master.m3u8"))
        assert master.is_variant and master.playlists, name
        for variant in master.playlists:
            info = variant.stream_info
            assert info.bandwidth > 0 and info.average_bandwidth > 0
            assert info.average_bandwidth <= info.bandwidth
            assert "avc1.64" in info.codecs and "mp4a.40.2" in info.codecs
            assert info.resolution and info.frame_rate
            media = m3u8.load(str(folder / variant.uri))
            assert media.is_endlist and media.playlist_type.lower() == "vod"
            assert media.segment_map and media.segment_map[0].uri
            assert media.keys and media.keys[-1] is not None and media.keys[-1].method == "AES-128"
            durations = [s.duration for s in media.segments]
            assert all(d <= 2.1 for d in durations), durations
            assert all(abs(d - 2.0) < 0.05 for d in durations[:-1]), durations
            for segment in media.segments:
                assert (folder / Path(variant.uri).parent / segment.uri).is_file()


def test_orientation_and_ladder(library):
    data, report = library
    portrait = post_media(data, by_name(report, "portrait.mp4")["id"])
    assert [r["name"] for r in portrait["renditions"]] == ["240p", "360p", "540p", "720p"]
    assert all(r["height"] > r["width"] for r in portrait["renditions"])
    rotated = post_media(data, by_name(report, "rotated.mp4")["id"])
    assert rotated["height"] > rotated["width"], "rotation metadata must keep a phone clip portrait"
    landscape = post_media(data, by_name(report, "landscape.mp4")["id"])
    assert landscape["width"] > landscape["height"]
    assert landscape["hasSourceAudio"] is False
    # Every variant has audio even when the source had none (no re-init on a swipe).
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json",
                            str(data / "media" / str(by_name(report, "landscape.mp4")["id"]) / "download.mp4")],
                           capture_output=True, text=True, check=True)
    kinds = [s["codec_type"] for s in json.loads(probe.stdout)["streams"]]
    assert "audio" in kinds and "video" in kinds


def test_image_post_has_variants_and_no_ladder(library):
    data, report = library
    media = post_media(data, by_name(report, "still.png")["id"])
    assert media["renditions"] == []
    widths = [v["width"] for v in media["images"][0]["variants"]]
    assert widths == [320, 720, 1080]


def test_published_files_are_exactly_the_listed_ones(library):
    data, report = library
    for item in report["imported"]:
        media = post_media(data, item["id"])
        listed = set()
        if media.get("masterPlaylist"):
            listed.add(media["masterPlaylist"])
        for r in media["renditions"]:
            listed |= {r["playlist"], r["initSegment"], *r["segments"]}
        for image in [media.get("poster"), media.get("thumbnail")]:
            if image:
                listed.add(image["path"])
        if media.get("download"):
            listed.add(media["download"])
        for image_set in media["images"]:
            listed |= {v["path"] for v in image_set["variants"]}
        assert files_under(data / "media" / str(item["id"])) == listed, item["path"]


def test_encrypted_variant_decodes_to_the_clear_encode(library, tmp_path):
    data, report = library
    source = tmp_path / "portrait.mp4"
    make_clip(source, size="720x1280", seconds=4, audio=True)
    clear_data = tmp_path / "clear"
    clear = import_json(clear_data, source, extra=("--no-encryption",))
    encrypted_id = by_name(report, "portrait.mp4")["id"]
    clear_id = clear["imported"][0]["id"]
    encrypted_copy = decodable_copy(data, encrypted_id, tmp_path / "enc")
    for rung in ["240p", "720p"]:
        encrypted_frames = framemd5(encrypted_copy / rung / "index.m3u8")
        clear_frames = framemd5(clear_data / "media" / str(clear_id) / rung / "index.m3u8")
        assert len(encrypted_frames) == 120
        assert encrypted_frames == clear_frames
    # Without the key nothing decodes: the segments really are encrypted.
    (encrypted_copy / "key").write_bytes(b"\0" * 16)
    try:
        wrong = framemd5(encrypted_copy / "240p" / "index.m3u8")
    except subprocess.CalledProcessError:
        wrong = []
    assert wrong != framemd5(clear_data / "media" / str(clear_id) / "240p" / "index.m3u8")


def test_keyframes_are_aligned_across_rungs(library):
    data, report = library
    folder = data / "media" / str(by_name(report, "portrait.mp4")["id"])
    # The clear download (≤ 720p) and each rung's init+first segment show keyframes at 0 and 2 s.
    def keyframes(path: Path) -> list[float]:
        out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
                              "-show_entries", "frame=pts_time", "-of", "csv=p=0", str(path)],
                             capture_output=True, text=True, check=True).stdout
        return [round(float(x), 2) for x in out.split() if x]
    assert keyframes(folder / "download.mp4") == [0.0, 2.0]
