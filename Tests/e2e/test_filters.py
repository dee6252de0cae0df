"""A chosen look (`--filter`, the recorder's filter) is applied by the server's transcode, so
every client sees it: checked on decoded pixels of the published stream, not on metadata."""
import subprocess
from pathlib import Path

import pytest

from conftest import import_json, make_clip, post_media, reelhouse


def chroma_spread(path: Path) -> tuple[float, float]:
    """Mean distance of U and V from neutral (128) over the first decoded frame of `path`, and
    the same for the luma's spread (to prove the frame is not just blank)."""
    hls = ["-allowed_extensions", "ALL"] if path.suffix == ".m3u8" else []
    raw = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", *hls, "-i", str(path),
         "-frames:v", "1", "-pix_fmt", "yuv444p", "-f", "rawvideo", "-"],
        capture_output=True, check=True,
    ).stdout
    third = len(raw) // 3
    y, u, v = raw[:third], raw[third:2 * third], raw[2 * third:]
    chroma = (sum(abs(b - 128) for b in u) + sum(abs(b - 128) for b in v)) / (2 * third)
    mean_y = sum(y) / third
    luma = sum(abs(b - mean_y) for b in y) / third
    return chroma, luma


@pytest.mark.sqlite_only("reads the published media from the SQLite file")
def test_mono_filter_makes_the_published_video_and_poster_grey(tmp_path):
    source = make_clip(tmp_path / "colour.mp4", size="360x640", seconds=2, source="testsrc2")
    original, _ = chroma_spread(source)
    assert original > 20, "the test clip must be colourful to begin with"
    data = tmp_path / "data"
    post_id = import_json(data, source, extra=("--no-encryption", "--filter", "mono"))["imported"][0]["id"]
    media = post_media(data, post_id)
    folder = data / "media" / str(post_id)
    grey, luma = chroma_spread(folder / media["renditions"][0]["playlist"])
    assert grey < 2 and luma > 10, (grey, luma)
    poster_grey, _ = chroma_spread(folder / media["poster"]["path"])
    assert poster_grey < 3


@pytest.mark.sqlite_only("reads the published media from the SQLite file")
def test_warm_and_cool_filters_shift_colour_and_an_unknown_filter_is_refused(tmp_path):
    source = make_clip(tmp_path / "grey.mp4", size="360x640", seconds=2, source="color=c=0x808080")
    means = {}
    for look in ("warm", "cool"):
        data = tmp_path / f"data-{look}"
        post_id = import_json(data, source, extra=("--no-encryption", "--filter", look))["imported"][0]["id"]
        playlist = data / "media" / str(post_id) / post_media(data, post_id)["renditions"][0]["playlist"]
        raw = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(playlist), "-frames:v", "1",
                              "-pix_fmt", "rgb24", "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
        means[look] = (sum(raw[0::3]) / (len(raw) / 3), sum(raw[2::3]) / (len(raw) / 3))
    (warm_red, warm_blue), (cool_red, cool_blue) = means["warm"], means["cool"]
    assert warm_red > warm_blue + 15 and cool_blue > cool_red + 15, means

    result = reelhouse(tmp_path / "other", "import", str(source), "--filter", "sepia", check=False)
    assert result.returncode != 0
    assert "--filter must be one of none, mono, vivid, warm, cool, vintage" in result.stderr
