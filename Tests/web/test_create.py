"""The create page (/create.html) against a real server: upload a clip with the tus client,
record with Chromium's fake camera and the mono look, generate with the local provider. Every
published post is looked up in /api/v1/feed; the mono look is checked on decoded pixels."""
import base64
import json
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import ARTIFACTS, FONT, ffmpeg, reelhouse
from create_fixtures import (  # noqa: F401  (fixtures are used by name)
    CreateServer, PHONE, create_context, create_server, feed_ids, media_browser, signed_in_context,
)

DESKTOP = {"width": 1280, "height": 800}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"create-{name}.png"))


def chroma_spread(raw: bytes) -> tuple[float, float]:
    """Mean |U−128| and |V−128| of one yuv444p frame, and the luma's spread (not blank)."""
    third = len(raw) // 3
    y, u, v = raw[:third], raw[third:2 * third], raw[2 * third:]
    mean_u = sum(abs(b - 128) for b in u) / third
    mean_v = sum(abs(b - 128) for b in v) / third
    mean_y = sum(y) / third
    return max(mean_u, mean_v), sum(abs(b - mean_y) for b in y) / third


def decode_frame(source: str, *before_input: str) -> bytes:
    return subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", *before_input, "-i", source, "-ss", "1",
         "-frames:v", "1", "-pix_fmt", "yuv444p", "-f", "rawvideo", "-"],
        capture_output=True, check=True, timeout=60,
    ).stdout


def published_frame(server, context, post_id: int) -> bytes:
    """A decoded frame of the post as every client gets it: its signed HLS master over HTTP."""
    video = context.request.get(f"/api/v1/videos/{post_id}").json()
    return decode_frame(server.url + video["media"]["master"])


def open_create(context, screen: str, query: str = ""):
    page = context.new_page()
    page.goto(f"/create.html{query}#{screen}")
    page.wait_for_selector(f"#panel-{screen}:not([hidden])")
    return page


# ---------------------------------------------------------------- generate


def test_generate_preview_regenerate_and_publish(create_context, create_server):
    page = open_create(create_context, "generate")
    page.wait_for_selector("#provider-select option", state="attached")
    # The default provider is the local one, and the page says so honestly.
    assert page.get_attribute("#provider-select option:checked", "data-local") == "true"
    assert "Local" in page.locator("#provider-select option:checked").inner_text()
    assert "nothing you type is sent anywhere else" in page.inner_text("#provider-note")

    page.fill("textarea[name=prompt]", "A lighthouse at dusk")
    page.select_option("#style-select", "sunset")
    page.click("#generate-submit")
    page.wait_for_selector("#generation[data-state=ready]", timeout=90_000)
    first_src = page.get_attribute("#generation-preview", "src")

    # Regenerate with an edited prompt: a new generation, a new private preview.
    page.fill("textarea[name=prompt]", "A lighthouse at night, stars above")
    page.click("#generation-regenerate")
    page.wait_for_function("src => { const v = document.querySelector('#generation-preview');"
                           " return document.querySelector('#generation').dataset.state === 'ready' && v.getAttribute('src') && v.getAttribute('src') !== src; }",
                           arg=first_src, timeout=90_000)
    page.wait_for_function("() => { const v = document.querySelector('#generation-preview');"
                           " return v.readyState >= 2 && v.currentTime > 0.5 && !v.paused; }", timeout=20_000)
    size = page.evaluate("() => { const v = document.querySelector('#generation-preview'); return [v.videoWidth, v.videoHeight]; }")
    assert size == [720, 1280]
    shot(page, "generate-preview")

    page.fill("#generate-fields textarea[name=description]", "Generated on the create page")
    page.fill("#generate-fields input[name=tags]", "lighthouse, night")
    page.click("#generation-publish")
    page.wait_for_selector("#generation[data-state=published]", timeout=120_000)
    link = page.locator("#generation-published .post-link")
    post_id = int(link.get_attribute("data-post-id"))
    assert link.get_attribute("href") == "/?tag=lighthouse"
    shot(page, "generate-published")

    assert post_id in feed_ids(create_context)
    post = create_context.request.get(f"/api/v1/videos/{post_id}").json()
    assert post["description"] == "Generated on the create page"
    # Regenerating left the first generation as it was (ready, still private, not a post).
    previous = first_src.split("/")[-2]
    first = create_context.request.get(f"/api/v1/generations/{previous}").json()
    assert first["state"] == "ready" and first.get("post_id") is None


def test_the_daily_generation_quota_is_shown_clearly(media_browser, tmp_path):
    server = CreateServer(tmp_path, env={"REELHOUSE_GENERATIONS_PER_DAY": "1"})
    context = signed_in_context(media_browser, server.url)
    try:
        page = open_create(context, "generate")
        page.wait_for_selector("#provider-select option", state="attached")
        page.fill("textarea[name=prompt]", "First of the day")
        page.click("#generate-submit")
        page.wait_for_selector("#generation:not([hidden])")
        page.wait_for_function("() => !document.querySelector('#generate-submit').disabled", timeout=90_000)
        page.fill("textarea[name=prompt]", "One too many")
        page.click("#generate-submit")
        error = page.locator("#generate-error")
        error.wait_for(state="visible")
        assert error.get_attribute("data-code") == "quota_exceeded"
        assert "Daily generation limit reached" in error.inner_text()
        assert "resets at midnight UTC" in error.inner_text()
        shot(page, "generate-quota")
    finally:
        context.close()
        server.stop()


# ---------------------------------------------------------------- record


@pytest.fixture(scope="module")
def mono_take(media_browser, create_server):
    """Three seconds held on the record button with the mono look chosen; the page stays open
    on the review of the take for the tests below."""
    context = signed_in_context(media_browser, create_server.url, bypass_csp=True)
    page = open_create(context, "record")
    page.click("#camera-start")
    page.wait_for_function("() => { const v = document.querySelector('#camera-preview'); return v.readyState >= 2 && v.videoWidth > 0; }",
                           timeout=15_000)
    page.click("label.filter-choice:has(input[value=mono])")
    assert "grayscale(1)" in page.evaluate("getComputedStyle(document.querySelector('#camera-preview')).filter")
    box = page.locator("#record-button").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(1500)
    ring = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#record-ring-fill')).strokeDashoffset)")
    shot(page, "record-holding")
    page.wait_for_timeout(1500)
    page.mouse.up()
    page.wait_for_selector("#take-preview:not([hidden])")
    data = page.evaluate("""async () => {
        const blob = await (await fetch(document.querySelector('#take-preview').src)).blob();
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { type: blob.type, base64: btoa(binary) };
    }""")
    shot(page, "record-review")
    yield {"page": page, "context": context, "type": data["type"], "bytes": base64.b64decode(data["base64"]), "ring": ring}
    context.close()


def import_frame(tmp_path: Path, source: Path, look: str) -> bytes:
    """`reelhouse import --filter LOOK` of a file, then a decoded frame of its first rung."""
    data = tmp_path / f"data-{look}"
    post_id = json.loads(reelhouse(data, "import", str(source), "--no-encryption", "--filter", look, "--json"))["imported"][0]["id"]
    with sqlite3.connect(data / "reelhouse.sqlite") as connection:
        media = json.loads(connection.execute("SELECT media_json FROM posts WHERE id = ?", (post_id,)).fetchone()[0])
    return decode_frame(str(data / "media" / str(post_id) / media["renditions"][0]["playlist"]), "-allowed_extensions", "ALL")


def test_a_held_recording_is_a_three_second_webm_the_server_can_make_grey(mono_take, tmp_path):
    assert mono_take["type"].startswith("video/webm")
    assert 0 < mono_take["ring"] < 2 * 3.1416 * 45, "the ring fills while the button is held"
    path = tmp_path / "take.webm"
    path.write_bytes(mono_take["bytes"])
    # MediaRecorder writes no duration: measure it from the packets, as the server does.
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                           "-of", "csv=p=0", str(path)], capture_output=True, text=True, check=True).stdout.split()
    times = [float(value) for value in probe if value]
    assert 2.5 <= max(times) - min(times) <= 3.6, (min(times), max(times))
    codecs = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", str(path)],
                            capture_output=True, text=True, check=True).stdout.split()
    assert {"vp9", "vp8"} & set(codecs) and "opus" in codecs, codecs   # stream order varies
    # The camera's picture is colourful; the server's mono look (what the upload asks for) is not.
    colour, _ = chroma_spread(decode_frame(str(path)))
    assert colour > 15, colour
    grey, luma = chroma_spread(import_frame(tmp_path, path, "mono"))
    assert grey < 3 and luma > 5, (grey, luma)


def test_the_recording_is_posted_with_the_mono_look_and_published_grey(mono_take, create_server):
    page, context = mono_take["page"], mono_take["context"]
    page.fill("#record-fields textarea[name=description]", "Recorded in the browser")
    page.fill("#record-fields input[name=tags]", "recorded")
    page.click("#post-take")
    row = page.locator("#record-uploads .upload-row").first
    row.locator("xpath=.").wait_for()
    page.wait_for_selector("#record-uploads .upload-row[data-state=published]", timeout=120_000)
    post_id = int(row.locator(".post-link").get_attribute("data-post-id"))
    shot(page, "record-published")
    assert post_id in feed_ids(context)
    grey, luma = chroma_spread(published_frame(create_server, context, post_id))
    assert grey < 3 and luma > 5, (grey, luma)


# ---------------------------------------------------------------- upload


def make_upload_clip(path: Path) -> Path:
    """A colourful 6 s 720×1280 clip with sound, about 1.5 MB: several 256 KB PATCHes."""
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=720x1280:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:duration=6",
           "-t", "6", "-vf", f"drawtext=fontfile={FONT}:text='uploaded':fontsize=64:fontcolor=white:x=(w-tw)/2:y=h*0.3",
           "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "2M", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path))
    return path


def test_upload_with_pause_resume_and_reload_then_published(create_context, create_server, tmp_path):
    page = open_create(create_context, "upload", "?chunk=262144")
    clip = make_upload_clip(tmp_path / "upload-clip.mp4")
    requests: list[tuple[str, str]] = []
    page.on("request", lambda request: "/api/v1/uploads" in request.url and requests.append((request.method, request.url)))

    # Slow the PATCHes down so pausing lands mid-upload.
    page.route("**/api/v1/uploads/**", lambda route: (time.sleep(0.15), route.continue_()))
    page.fill("#upload-fields textarea[name=description]", "Uploaded from the create page")
    page.fill("#upload-fields input[name=tags]", "uploaded")
    page.set_input_files("#file-input", str(clip))
    row = page.locator("#upload-list .upload-row").first
    page.wait_for_function("() => document.querySelector('.upload-progress').value > 0.2", timeout=30_000)
    row.locator(".upload-toggle").click()
    page.wait_for_selector(".upload-row[data-state=paused]")
    paused_at = page.evaluate("document.querySelector('.upload-progress').value")
    assert 0 < paused_at < 1
    shot(page, "upload-paused")

    # A reload forgets the File; picking it again resumes from the server's offset (HEAD, no POST).
    page.reload()
    page.wait_for_selector("#panel-upload:not([hidden])")
    assert "Choose the same file again" in page.inner_text("#upload-unavailable")
    requests.clear()
    page.set_input_files("#file-input", str(clip))
    page.wait_for_selector(".upload-row[data-state=processing], .upload-row[data-state=published]", timeout=60_000)
    methods = [method for method, _ in requests]
    assert methods[0] in ("OPTIONS", "HEAD") and "POST" not in methods, methods
    page.wait_for_selector(".upload-row[data-state=published]", timeout=120_000)
    post_id = int(page.locator(".upload-row .post-link").get_attribute("data-post-id"))
    shot(page, "upload-published")
    assert post_id in feed_ids(create_context)
    assert create_context.request.get(f"/api/v1/videos/{post_id}").json()["description"] == "Uploaded from the create page"


def test_processing_can_be_stopped_and_retried_from_the_row(create_context, create_server, tmp_path):
    clip = tmp_path / "long-take.mp4"
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=720x1280:rate=30", "-t", "40", "-c:v", "libx264", "-preset", "ultrafast",
           "-pix_fmt", "yuv420p", str(clip))
    page = open_create(create_context, "upload")
    page.set_input_files("#file-input", str(clip))
    row = page.locator("#upload-list .upload-row").last
    page.wait_for_selector("#upload-list .upload-row[data-state=processing] .upload-cancel:not([hidden])", timeout=60_000)
    assert row.locator(".upload-cancel").inner_text() == "Stop"
    row.locator(".upload-cancel").click()
    page.wait_for_selector("#upload-list .upload-row[data-state=failed]", timeout=30_000)
    assert "cancelled by" in row.locator(".upload-status").inner_text()
    retry = row.locator(".upload-toggle")
    assert retry.is_visible() and retry.inner_text() == "Retry processing"
    shot(page, "processing-stopped")
    retry.click()
    page.wait_for_selector("#upload-list .upload-row[data-state=published]", timeout=180_000)
    post_id = int(row.locator(".post-link").get_attribute("data-post-id"))
    assert create_context.request.get(f"/api/v1/videos/{post_id}").ok


# ---------------------------------------------------------------- layout and keyboard


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone-360", "desktop"])
def test_tabs_work_from_the_keyboard_and_nothing_overflows(media_browser, create_server, viewport):
    context = signed_in_context(media_browser, create_server.url, viewport=viewport)
    try:
        page = open_create(context, "upload")
        page.focus("#tab-upload")
        for expected in ("record", "generate", "upload"):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f"#panel-{expected}:not([hidden])")
            assert page.evaluate("document.activeElement.dataset.screen") == expected
            overflow = page.evaluate("document.querySelector('.create-view').scrollWidth - document.querySelector('.create-view').clientWidth")
            assert overflow <= 0, f"{expected} overflows by {overflow}px at {viewport['width']}px"
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", "the focused tab shows a focus ring"
        page.keyboard.press("ArrowLeft")
        assert page.evaluate("location.hash") == "#generate"
        shot(page, f"tabs-{viewport['width']}")
    finally:
        context.close()


def test_an_upload_whose_import_outlasts_the_last_request_is_still_followed_to_its_post(media_browser, tmp_path):
    # The server answers an upload's last PATCH without waiting for its import
    # (uploadImportWaitSeconds 0), so the answer names only the import job and the page must
    # ask HEAD until the post is named, then follow its transcode as usual.
    (tmp_path / "slow-import").mkdir()
    server = CreateServer(tmp_path / "slow-import", env={"REELHOUSE_UPLOAD_IMPORT_WAIT_SECONDS": "0"})
    context = signed_in_context(media_browser, server.url)
    try:
        page = open_create(context, "upload")
        heads: list[str] = []
        page.on("request", lambda request: request.method == "HEAD" and "/api/v1/uploads/" in request.url and heads.append(request.url))
        page.set_input_files("#file-input", str(make_upload_clip(tmp_path / "slow-import.mp4")))
        page.wait_for_selector(".upload-row[data-state=published]", timeout=180_000)
        post_id = int(page.locator(".upload-row .post-link").get_attribute("data-post-id"))
        assert heads, "the page asked HEAD for the post after the last PATCH named only the import job"
        assert context.request.get(f"/api/v1/videos/{post_id}").ok
    finally:
        context.close()
        server.stop()
