"""The create page posts to "Your story": an uploaded clip (390×844, touch), an uploaded photo
(1440×900, keyboard only) and a recording with the mono look. Each upload carries the tus
metadata `story` = `1`, is followed to the person's stories, and is then found where a story
lives — `GET /api/v1/stories/{username}` — and not in the feed."""
import base64
from pathlib import Path

import pytest

from conftest import ARTIFACTS, FONT, USER, ffmpeg, make_image
from create_fixtures import (  # noqa: F401  (fixtures are used by name)
    create_server, feed_ids, media_browser, signed_in_context,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"create-story-{name}.png"))


def metadata_of(header: str) -> dict[str, str]:
    pairs = (pair.strip().partition(" ") for pair in header.split(",") if pair.strip())
    return {key: base64.b64decode(value).decode() for key, _, value in pairs}


def record_upload_metadata(page) -> list[dict[str, str]]:
    sent: list[dict[str, str]] = []
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/api/v1/uploads")
            and sent.append(metadata_of(request.headers.get("upload-metadata", ""))))
    return sent


def open_create(context, screen: str, query: str = ""):
    page = context.new_page()
    page.goto(f"/create.html{query}#{screen}")
    page.wait_for_selector(f"#panel-{screen}:not([hidden]) .destination-picker")
    return page


def story_items(context) -> list[dict]:
    response = context.request.get(f"/api/v1/stories/{USER}")
    assert response.ok, response.text()
    return response.json()["items"]


def labelled_clip(path: Path) -> Path:
    """A 2 s clip whose pixels differ per name (the server refuses bytes it already has)."""
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=360x640:rate=15", "-t", "2",
           "-vf", f"drawtext=fontfile={FONT}:text='{path.stem}':fontsize=48:fontcolor=white:x=20:y=h*0.4",
           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path))
    return path


def follow_row_to_story(page, panel_list: str) -> int:
    row = page.locator(f"{panel_list} .upload-row").last
    row.locator("xpath=.").wait_for()
    assert row.get_attribute("data-destination") == "story"
    page.wait_for_selector(f"{panel_list} .upload-row[data-state=published]", timeout=180_000)
    link = row.locator(".story-link")
    assert link.get_attribute("href") == f"/stories/{USER}"
    assert "Added to your story" in row.inner_text()
    return int(link.get_attribute("data-post-id"))


def test_a_clip_uploaded_on_a_phone_goes_to_your_story_not_the_feed(media_browser, create_server, tmp_path):
    context = media_browser.new_context(base_url=create_server.url, viewport=PHONE, has_touch=True, is_mobile=True,
                                        service_workers="block")
    assert context.request.post("/api/v1/session", data={"username": USER, "password": "correct horse battery staple"}).ok
    try:
        page = open_create(context, "upload")
        sent = record_upload_metadata(page)
        # A post unless chosen otherwise; choosing the story hides the tags a story does not have.
        assert page.is_checked("input[name=upload-destination][value=post]")
        assert page.is_visible("#upload-fields input[name=tags]")
        page.tap("#panel-upload label.destination-choice:has(input[value=story])")
        assert page.is_checked("input[name=upload-destination][value=story]")
        assert not page.is_visible("#upload-fields input[name=tags]")
        assert page.inner_text("#upload-fields legend") == "Story details"
        assert page.is_visible("#panel-upload .destination-hint")
        page.fill("#upload-fields textarea[name=description]", "A story from the phone")
        shot(page, "upload-phone-chosen")

        page.set_input_files("#file-input", str(labelled_clip(tmp_path / "phone-story.mp4")))
        post_id = follow_row_to_story(page, "#upload-list")
        shot(page, "upload-phone-published")
        assert sent and sent[0].get("story") == "1" and "tags" not in sent[0], sent

        item = next(item for item in story_items(context) if item["id"] == post_id)
        assert item["kind"] == "video" and item["caption"] == "A story from the phone"
        assert item["media"]["master"]
        assert post_id not in feed_ids(context), "a story never shows in the feed"
    finally:
        context.close()


def test_a_photo_goes_to_your_story_from_the_keyboard_on_a_desktop(media_browser, create_server, tmp_path):
    context = signed_in_context(media_browser, create_server.url, viewport=DESKTOP)
    try:
        page = open_create(context, "upload")
        sent = record_upload_metadata(page)
        # Arrow keys move the radio group's choice, as in any radio group; focus is visible.
        page.focus("input[name=upload-destination][value=post]")
        page.keyboard.press("ArrowRight")
        assert page.is_checked("input[name=upload-destination][value=story]")
        outline = page.evaluate("getComputedStyle(document.querySelector('input[value=story] + span')).outlineStyle")
        assert outline != "none", "the focused choice shows a focus ring"
        shot(page, "upload-desktop-chosen")

        photo = make_image(tmp_path / "desk-photo.jpg", size="1080x1350", source="smptebars", label="desk photo")
        page.set_input_files("#file-input", str(photo))
        post_id = follow_row_to_story(page, "#upload-list")
        assert sent and sent[0].get("story") == "1" and sent[0]["filetype"] == "image/jpeg", sent

        item = next(item for item in story_items(context) if item["id"] == post_id)
        assert item["kind"] == "photo" and item["duration"] > 0
        assert post_id not in feed_ids(context)
    finally:
        context.close()


def test_a_recording_with_a_look_goes_to_your_story(media_browser, create_server):
    context = signed_in_context(media_browser, create_server.url, viewport=PHONE)
    try:
        page = open_create(context, "record", "?to=story")
        sent = record_upload_metadata(page)
        # Opened from "add to your story": the story is already chosen and the button says so.
        assert page.is_checked("input[name=record-destination][value=story]")
        page.click("#camera-start")
        page.wait_for_function("() => { const v = document.querySelector('#camera-preview'); return v.readyState >= 2 && v.videoWidth > 0; }",
                               timeout=15_000)
        page.click("label.filter-choice:has(input[value=mono])")
        box = page.locator("#record-button").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_timeout(2000)   # a real two-second recording: MediaRecorder runs on wall time
        page.mouse.up()
        page.wait_for_selector("#take-actions:not([hidden])")
        assert page.inner_text("#post-take") == "Share to your story"
        page.fill("#record-fields textarea[name=description]", "Recorded for the story")
        shot(page, "record-review")
        page.click("#post-take")
        post_id = follow_row_to_story(page, "#record-uploads")
        assert sent and sent[0].get("story") == "1" and sent[0]["filter"] == "mono", sent
        item = next(item for item in story_items(context) if item["id"] == post_id)
        assert item["kind"] == "video" and item["caption"] == "Recorded for the story"
    finally:
        context.close()


@pytest.mark.parametrize("screen", ["upload", "record"])
def test_choosing_post_again_sends_no_story_flag(media_browser, create_server, screen):
    """The switch goes both ways: back on "Post", the page is the post page it always was."""
    context = signed_in_context(media_browser, create_server.url, viewport=PHONE)
    try:
        page = open_create(context, screen, "?to=story")
        fields = f"#{screen}-fields"
        page.click(f"#panel-{screen} label.destination-choice:has(input[value=post])")
        assert page.inner_text(f"{fields} legend") == "Post details"
        assert page.locator(f"{fields} input[name=tags]").evaluate("input => !input.closest('label').hidden")
        if screen == "record":
            assert page.inner_text("#post-take") == "Post"
        assert not page.is_visible(f"#panel-{screen} .destination-hint")
    finally:
        context.close()
