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
    ffmpeg("-i", str(root / "raw_rotated.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", str(clips / "rotated.mp4"))
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
            # Short segments open the video (a first picture from few bytes), then the 2 s grid.
            lead = [0.5, 0.5, 1.0]
            assert all(abs(d - want) < 0.05 for d, want in zip(durations[:-1], lead + [2.0] * len(durations))), durations
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


def test_poster_and_thumbnail_sizes_are_what_the_model_says(library):
    data, report = library
    for name in ["portrait.mp4", "landscape.mp4", "rotated.mp4"]:
        post_id = by_name(report, name)["id"]
        media = post_media(data, post_id)
        assert media["thumbnail"]["width"] <= 320
        assert (media["poster"]["width"], media["poster"]["height"]) == (media["width"], media["height"])
        for image in [media["poster"], media["thumbnail"]]:
            out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "json",
                                  str(data / "media" / str(post_id) / image["path"])], capture_output=True, text=True, check=True)
            stream = json.loads(out.stdout)["streams"][0]
            assert (stream["width"], stream["height"]) == (image["width"], image["height"]), (name, image)


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


def decrypt_copy(folder: Path, key: bytes, into: Path) -> Path:
    """An independent decryption (Python's `cryptography`, not our code and not ffmpeg): every
    segment AES-128-CBC with IV = media sequence number, PKCS7 removed; key lines dropped."""
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    shutil.copytree(folder, into)
    for playlist_path in into.glob("*/index.m3u8"):
        playlist = m3u8.load(str(playlist_path))
        sequence = playlist.media_sequence or 0
        for index, segment in enumerate(playlist.segments):
            path = playlist_path.parent / segment.uri
            iv = (sequence + index).to_bytes(16, "big")
            decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
            padded = decryptor.update(path.read_bytes()) + decryptor.finalize()
            unpadder = padding.PKCS7(128).unpadder()
            path.write_bytes(unpadder.update(padded) + unpadder.finalize())
        text = playlist_path.read_text()
        playlist_path.write_text("\n".join(line for line in text.splitlines() if not line.startswith("#EXT-X-KEY")) + "\n")
    return into


def post_key(data: Path, post_id: int) -> bytes:
    with db(data) as connection:
        return bytes(connection.execute("SELECT key FROM post_keys WHERE post_id = ?", (post_id,)).fetchone()["key"])


def test_encrypted_variant_decodes_to_the_clear_encode(library, tmp_path):
    data, report = library
    post_id = by_name(report, "portrait.mp4")["id"]
    encrypted = decodable_copy(data, post_id, tmp_path / "enc")
    clear = decrypt_copy(data / "media" / str(post_id), post_key(data, post_id), tmp_path / "clear")
    for rung in ["240p", "720p"]:
        # ffmpeg follows our playlist's key line and IV rule; Python decrypts on its own.
        encrypted_frames = framemd5(encrypted / rung / "index.m3u8")
        clear_frames = framemd5(clear / rung / "index.m3u8")
        assert len(encrypted_frames) == 120
        assert encrypted_frames == clear_frames
    # Without the key nothing decodes: the segments really are encrypted.
    (encrypted / "key").write_bytes(b"\0" * 16)
    try:
        wrong = framemd5(encrypted / "240p" / "index.m3u8")
    except subprocess.CalledProcessError:
        wrong = []
    assert wrong != framemd5(clear / "240p" / "index.m3u8")


def test_a_clear_library_is_published_without_keys(tmp_path):
    source = make_clip(tmp_path / "clip.mp4", size="360x640", seconds=2)
    data = tmp_path / "clear-data"
    post_id = import_json(data, source, extra=("--no-encryption",))["imported"][0]["id"]
    media = post_media(data, post_id)
    assert media["encrypted"] is False
    for rendition in media["renditions"]:
        assert "#EXT-X-KEY" not in (data / "media" / str(post_id) / rendition["playlist"]).read_text()
    assert len(framemd5(data / "media" / str(post_id) / "240p" / "index.m3u8")) == 60
    with db(data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM post_keys").fetchone()[0] == 0


def keyframes(path: Path) -> list[float]:
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
                          "-show_entries", "frame=pts_time", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return [round(float(x.strip(",")), 2) for x in out.split() if x.strip(",")]


def test_keyframes_are_aligned_across_rungs(library, tmp_path):
    data, report = library
    post_id = by_name(report, "portrait.mp4")["id"]
    clear = decrypt_copy(data / "media" / str(post_id), post_key(data, post_id), tmp_path / "clear")
    times = {rung: keyframes(clear / rung / "index.m3u8") for rung in ["240p", "360p", "540p", "720p"]}
    assert len(set(map(tuple, times.values()))) == 1, times
    first = times["240p"]
    # The short opening segments (0.5, 0.5, 1 s), then the 2 s grid.
    assert [round(t - first[0], 2) for t in first] == [0.0, 0.5, 1.0, 2.0], first
    download = keyframes(data / "media" / str(post_id) / "download.mp4")
    assert [round(t - download[0], 2) for t in download] == [0.0, 0.5, 1.0, 2.0]
