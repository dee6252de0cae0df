"""Bad inputs: each rejected with its reason, nothing stored for it, the rest imported.

The kinds (one file each, `BAD` below):
 1. zero-byte .mp4                       → empty
 2. plain text named .mp4                → not a media file
 3. random bytes named .mov              → not a media file
 4. HTML page named .webm                → not a media file
 5. truncated MP4, index at the end      → truncated (moov atom not found)
 6. truncated faststart MP4              → truncated near its end
 7. audio only (AAC in .m4v)             → only an audio stream
 8. longer than the configured maximum   → too long
 9. 48×48 video                          → too small
10. 7800×64 video (wider than 8K)        → too large
11. 240 fps video                        → absurd frame rate
12. truncated PNG                        → not decodable
13. random bytes named .jpg              → not an image
14. 10×10 PNG                            → too small
15. image above the pixel limit          → too large
16. zero-byte .png                       → empty
17. MKV with only a subtitle stream      → no video stream
"""
import os
from pathlib import Path

from conftest import ffmpeg, files_under, import_json, make_clip, make_image, db

MAX_DURATION = "5"
MAX_PIXELS = "2000000"


def build_bad_folder(folder: Path, scratch: Path) -> dict[str, str]:
    folder.mkdir(parents=True)
    scratch.mkdir(parents=True)
    expect: dict[str, str] = {}

    (folder / "01_empty.mp4").write_bytes(b"")
    expect["01_empty.mp4"] = "empty (0 bytes)"
    (folder / "02_text.mp4").write_text("this is not a video\n" * 20)
    expect["02_text.mp4"] = "not a media file"
    (folder / "03_random.mov").write_bytes(os.urandom(4096))
    expect["03_random.mov"] = "not a media file"
    (folder / "04_page.webm").write_text("<!doctype html><html><body>404</body></html>")
    expect["04_page.webm"] = "not a media file"

    full = make_clip(scratch / "full.mp4", size="320x240", seconds=3)
    data = full.read_bytes()
    (folder / "05_truncated.mp4").write_bytes(data[: len(data) // 2])
    expect["05_truncated.mp4"] = "truncated: moov atom not found"
    faststart = make_clip(scratch / "fast.mp4", size="320x240", seconds=3, extra=("-movflags", "+faststart"))
    data = faststart.read_bytes()
    (folder / "06_truncated_faststart.mp4").write_bytes(data[: int(len(data) * 0.6)])
    expect["06_truncated_faststart.mp4"] = "truncated or undecodable near its end"

    ffmpeg("-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac", "-f", "mp4", str(folder / "07_audio_only.m4v"))
    expect["07_audio_only.m4v"] = "only an audio stream"
    make_clip(folder / "08_too_long.mp4", size="160x120", seconds=7, audio=False, rate=10)
    expect["08_too_long.mp4"] = "above the limit"
    make_clip(folder / "09_tiny.mp4", size="48x48", seconds=1, audio=False)
    expect["09_tiny.mp4"] = "below the minimum"
    make_clip(folder / "10_too_wide.mp4", size="7800x64", seconds=0.2, audio=False, source="color", rate=5)
    expect["10_too_wide.mp4"] = "above the limit of 7680"
    make_clip(folder / "11_240fps.mp4", size="160x120", seconds=1, audio=False, rate=240)
    expect["11_240fps.mp4"] = "frame rate"

    png = make_image(scratch / "ok.png", size="640x480")
    data = png.read_bytes()
    (folder / "12_truncated.png").write_bytes(data[: len(data) // 3])
    expect["12_truncated.png"] = "not decodable"
    (folder / "13_random.jpg").write_bytes(os.urandom(2048))
    expect["13_random.jpg"] = "not a media file"
    make_image(folder / "14_tiny.png", size="10x10")
    expect["14_tiny.png"] = "below the minimum"
    make_image(folder / "15_huge.png", size="2000x1500", source="color")
    expect["15_huge.png"] = "above the limit"
    (folder / "16_empty.png").write_bytes(b"")
    expect["16_empty.png"] = "empty"
    srt = scratch / "sub.srt"
    srt.write_text("1\n00:00:00,000 --> 00:00:01,000\nhello\n")
    ffmpeg("-i", str(srt), "-c:s", "srt", str(folder / "17_subtitles_only.mkv"))
    expect["17_subtitles_only.mkv"] = "no video or image stream"
    return expect


def test_every_bad_input_is_rejected_and_the_rest_imported(tmp_path, data):
    folder = tmp_path / "mixed"
    expect = build_bad_folder(folder, tmp_path / "scratch")
    assert len(expect) >= 15
    make_clip(folder / "good_clip.mp4", size="320x568", seconds=2)
    make_image(folder / "good_still.jpg", size="640x480")

    report = import_json(data, folder, extra=("--max-duration", MAX_DURATION, "--max-image-pixels", MAX_PIXELS))

    rejected = {Path(item["path"]).name: item["reason"] for item in report["rejected"]}
    for name, phrase in expect.items():
        assert name in rejected, f"{name} was not rejected; report: {report}"
        assert phrase.lower() in rejected[name].lower(), f"{name}: {rejected[name]!r} lacks {phrase!r}"
    assert sorted(Path(item["path"]).name for item in report["imported"]) == ["good_clip.mp4", "good_still.jpg"]

    # Nothing stored for the rejected files: two posts, two sources, two media folders, no temp.
    with db(data) as connection:
        rows = connection.execute("SELECT status FROM posts").fetchall()
        jobs = connection.execute("SELECT state FROM jobs").fetchall()
    assert [r["status"] for r in rows] == ["ready", "ready"]
    assert sorted(r["state"] for r in jobs) == ["succeeded", "succeeded"]
    assert len(files_under(data / "sources")) == 2
    assert len(list((data / "media").iterdir())) == 2
    assert files_under(data / "tmp") == set()


def test_a_folder_of_only_bad_files_exits_non_zero(tmp_path, data):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.mp4").write_bytes(b"")
    (folder / "b.mov").write_text("nope")
    report = import_json(data, folder, check=False)
    assert report["imported"] == [] and len(report["rejected"]) == 2
    from conftest import reelhouse
    assert reelhouse(data, "import", str(folder), check=False).returncode != 0


def test_missing_path_is_one_clear_line(tmp_path, data):
    from conftest import reelhouse
    result = reelhouse(data, "import", str(tmp_path / "nope"), check=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "does not exist" in lines[0]
