"""Sidecar metadata through the real import, carousels, EXIF handling, and re-runs."""
import json
import lzma
import struct
import subprocess
from pathlib import Path

from conftest import db, import_json, make_clip, make_image, post_media


def exif_app1(orientation: int) -> bytes:
    """An EXIF APP1 segment (little-endian TIFF) with an orientation and a GPS latitude."""
    entries_ifd0 = 2
    ifd0_size = 2 + entries_ifd0 * 12 + 4
    gps_offset = 8 + ifd0_size
    tiff = b"II*\x00" + struct.pack("<I", 8)
    tiff += struct.pack("<H", entries_ifd0)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)        # Orientation
    tiff += struct.pack("<HHII", 0x8825, 4, 1, gps_offset)            # GPS IFD pointer
    tiff += struct.pack("<I", 0)
    tiff += struct.pack("<H", 1) + struct.pack("<HHI4s", 0x0001, 2, 2, b"N\x00\x00\x00") + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def jpeg_with_exif(path: Path, size: str, orientation: int) -> Path:
    plain = make_image(path.with_suffix(".plain.jpg"), size=size)
    data = plain.read_bytes()
    assert data[:2] == b"\xff\xd8"
    path.write_bytes(data[:2] + exif_app1(orientation) + data[2:])
    plain.unlink()
    return path


def post_row(data: Path, post_id: int) -> dict:
    with db(data) as connection:
        row = dict(connection.execute("SELECT * FROM posts WHERE id = ?", (post_id,)).fetchone())
        row["tags"] = sorted(r["tag"] for r in connection.execute("SELECT tag FROM post_tags WHERE post_id = ?", (post_id,)))
    return row


def test_ytdlp_sidecar_metadata_and_idempotent_rerun(tmp_path, data):
    folder = tmp_path / "reels"
    make_clip(folder / "dance.mp4", size="360x640", seconds=2)
    sidecar = {
        "id": "7251234567890", "title": "Dance", "description": "First try #dance", "uploader": "Ana Example",
        "uploader_id": "@ana.example", "timestamp": 1700000000, "webpage_url": "https://example.com/v/7251234567890",
        "tags": ["dance", "fun"], "categories": ["Entertainment"], "extractor": "TikTok", "duration": 2,
    }
    (folder / "dance.info.json").write_text(json.dumps(sidecar))
    first = import_json(data, folder, extra=("--tag", "imported"))
    post_id = first["imported"][0]["id"]
    row = post_row(data, post_id)
    assert row["description"] == "First try #dance"
    assert row["uploader"] == "Ana Example" and row["username"] == "ana.example"
    assert row["shortcode"] == "7251234567890"
    assert row["date_posted"].startswith("2023-11-14T22:13:20")
    assert row["source_url"] == "https://example.com/v/7251234567890"
    assert {"dance", "fun", "Entertainment", "imported"} <= set(row["tags"])

    again = import_json(data, folder)
    assert again["imported"] == [] and len(again["skipped"]) == 1
    assert "already imported" in again["skipped"][0]["reason"]

    sidecar["description"] = "Edited caption"
    (folder / "dance.info.json").write_text(json.dumps(sidecar))
    third = import_json(data, folder)
    assert third["imported"] == []
    assert post_row(data, post_id)["description"] == "Edited caption"
    with db(data) as connection:
        assert connection.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 1
        assert connection.execute("SELECT COUNT(*) FROM jobs").fetchone()[0] == 1


def test_instaloader_carousel_with_xz_sidecar_and_exif(tmp_path, data):
    folder = tmp_path / "insta"
    folder.mkdir()
    stem = "2023-05-01_10-00-00_UTC"
    jpeg_with_exif(folder / f"{stem}_1.jpg", size="800x600", orientation=6)
    make_image(folder / f"{stem}_2.jpg", size="640x640")
    node = {
        "node": {
            "__typename": "GraphSidecar", "shortcode": "CrAbC123xyz", "taken_at_timestamp": 1682935200,
            "owner": {"username": "bea.example", "full_name": "Bea Example"},
            "edge_media_to_caption": {"edges": [{"node": {"text": "Spring #garden #sun"}}]},
        },
        "instaloader": {"version": "4.10", "node_type": "Post"},
    }
    (folder / f"{stem}.json.xz").write_bytes(lzma.compress(json.dumps(node).encode()))
    report = import_json(data, folder)
    assert len(report["imported"]) == 1, report
    post_id = report["imported"][0]["id"]
    row = post_row(data, post_id)
    assert row["kind"] == "carousel"
    assert row["shortcode"] == "CrAbC123xyz" and row["username"] == "bea.example"
    assert {"garden", "sun"} <= set(row["tags"])
    media = post_media(data, post_id)
    assert len(media["images"]) == 2
    first = media["images"][0]["variants"]
    # Orientation 6 (rotate 90° clockwise): the 800×600 original is shown upright as 600×800.
    assert all(v["height"] > v["width"] for v in first)
    out = data / "media" / str(post_id) / first[-1]["path"]
    assert b"Exif" not in out.read_bytes()[:4096], "EXIF (and its GPS block) must be stripped"
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "json", str(out)],
                           capture_output=True, text=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    assert stream["height"] > stream["width"]


def test_malformed_sidecar_is_a_warning_not_a_loss(tmp_path, data):
    folder = tmp_path / "bad_sidecar"
    make_clip(folder / "clip.mp4", size="320x568", seconds=2)
    (folder / "clip.info.json").write_text('{"id": "abc", "title": ')
    result = import_json(data, folder)
    assert len(result["imported"]) == 1
    assert result["rejected"] == []
    assert any("clip" in w["path"] for w in result.get("warnings", []))
