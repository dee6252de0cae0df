"""Captions in the feed: a clip imported with `clip.en.vtt` and `clip.pt.srt` shows a CC button
that steps Off → English → Portuguese → Off; the cue text of the chosen language is drawn on the
video (fetched from the HLS subtitle rendition's WebVTT segments through the MSE player), the
choice survives a reload, and a clip without subtitles has no button. Its own small library."""
import pytest

from conftest import PASSWORD, PHONE, USER, Server, make_clip, reelhouse, signed_in_state
from helpers import CURRENT

ENGLISH = "Crème brûlée — 日本語"
PORTUGUESE = "Olá, mundo — ação"

# Cues covering the whole clip, each in a segment of its own and one across a boundary.
EN_VTT = f"""WEBVTT

00:00:00.000 --> 00:00:03.000
{ENGLISH}

00:00:03.000 --> 00:00:08.000
{ENGLISH}
"""
PT_SRT = f"\ufeff1\r\n00:00:00,000 --> 00:00:08,000\r\n{PORTUGUESE}\r\n\r\n"


@pytest.fixture(scope="module")
def captioned_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("captions-library")
    sources, data = root / "sources", root / "data"
    make_clip(sources / "subs" / "talk.mp4", size="360x640", seconds=8, label="talk")
    (sources / "subs" / "talk.en.vtt").write_text(EN_VTT, encoding="utf-8")
    (sources / "subs" / "talk.pt.srt").write_bytes(PT_SRT.encode("utf-8"))
    make_clip(sources / "plain" / "quiet.mp4", size="360x640", seconds=4, label="quiet")
    # Chromium's native HLS plays clear fMP4 only: the fallback test's clip is not encrypted.
    make_clip(sources / "clear" / "clear.mp4", size="360x640", seconds=8, label="clear")
    (sources / "clear" / "clear.en.vtt").write_text(EN_VTT, encoding="utf-8")
    reelhouse(data, "import", str(sources / "subs"), "--tag", "subs", "--preset", "ultrafast", "--json")
    reelhouse(data, "import", str(sources / "plain"), "--tag", "plain", "--preset", "ultrafast", "--json")
    reelhouse(data, "import", str(sources / "clear"), "--tag", "clear", "--no-encryption", "--preset", "ultrafast", "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    server = Server(data, root / "serve.log")
    yield server.url
    server.stop()


def open_page(browser, base_url, path, init_script=None, viewport=PHONE, locale="en-US"):
    context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block", locale=locale,
                                  storage_state=signed_in_state(browser, base_url), bypass_csp=True)
    page = context.new_page()
    if init_script:
        page.add_init_script(init_script)
    page.goto(path)
    page.wait_for_selector(f"{CURRENT} video.ready", timeout=20_000)
    return context, page


def test_the_captions_toggle_shows_each_language_and_is_remembered(browser, captioned_server, artifacts):
    context, page = open_page(browser, captioned_server, "/?tag=subs")
    button = page.locator(f"{CURRENT} [data-action='captions']")
    line = page.locator(f"{CURRENT} .captions-line")
    assert button.get_attribute("aria-pressed") == "false" and button.get_attribute("aria-label") == "Captions off"
    assert line.is_hidden()

    button.click()
    assert button.get_attribute("aria-label") == "Captions: English"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {ENGLISH!r}",
                           timeout=15_000)
    assert line.is_visible() and line.inner_text() == ENGLISH
    box, stage = line.bounding_box(), page.locator(f"{CURRENT} .stage").bounding_box()
    assert box["height"] > 0 and stage["y"] <= box["y"] and box["y"] + box["height"] <= stage["y"] + stage["height"]
    page.screenshot(path=str(artifacts / "captions-english-390.png"))
    # The English cues came from the subtitle rendition's segments, not from anywhere else.
    fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert any(path.endswith("/subtitles/en/index.m3u8") for path in fetched)
    assert any("/subtitles/en/seg_" in path and path.endswith(".vtt") for path in fetched)

    button.click()
    assert button.get_attribute("aria-label") == "Captions: Portuguese"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {PORTUGUESE!r}",
                           timeout=15_000)
    assert page.evaluate("JSON.parse(localStorage.getItem('reelhouse.captions')).language") == "pt"

    # A reload shows Portuguese at once; one more press turns captions off.
    page.reload()
    page.wait_for_selector(f"{CURRENT} video.ready", timeout=20_000)
    button = page.locator(f"{CURRENT} [data-action='captions']")
    assert button.get_attribute("aria-pressed") == "true"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {PORTUGUESE!r}",
                           timeout=15_000)
    button.click()
    assert button.get_attribute("aria-label") == "Captions off"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').hidden", timeout=5_000)
    # The keyboard does the same: `c` steps to the next language.
    page.locator("body").focus()
    page.keyboard.press("c")
    assert button.get_attribute("aria-label") == "Captions: English"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {ENGLISH!r}",
                           timeout=15_000)
    assert page.locator("video").count() <= 3
    context.close()


def test_the_first_captions_are_in_the_browsers_language(browser, captioned_server):
    """Turned on for the first time, captions start in the language the browser asks for, not
    in the first one alphabetically (English); the other languages follow."""
    context, page = open_page(browser, captioned_server, "/?tag=subs", locale="pt-BR")
    button = page.locator(f"{CURRENT} [data-action='captions']")
    button.click()
    assert button.get_attribute("aria-label") == "Captions: Portuguese"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {PORTUGUESE!r}",
                           timeout=15_000)
    button.click()
    assert button.get_attribute("aria-label") == "Captions: English"
    context.close()


def test_a_video_without_subtitles_has_no_captions_button(browser, captioned_server):
    context, page = open_page(browser, captioned_server, "/?tag=plain")
    assert page.locator(f"{CURRENT} [data-action='captions']").count() == 0
    assert page.locator(f"{CURRENT} .captions-line").count() == 0
    context.close()


def test_captions_work_on_the_native_hls_fallback(browser, captioned_server):
    """Without Media Source Extensions the element plays the master itself; a master with
    subtitle renditions still plays, and the captions come from the same WebVTT segments."""
    hide_mse = "delete window.MediaSource; delete window.ManagedMediaSource; delete window.WebKitMediaSource;"
    context, page = open_page(browser, captioned_server, "/?tag=clear", init_script=hide_mse)
    assert page.evaluate("typeof MediaSource") == "undefined"
    assert page.evaluate(f"document.querySelector('{CURRENT} video').src").endswith("/master.m3u8")
    page.locator(f"{CURRENT} [data-action='captions']").click()
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {ENGLISH!r}",
                           timeout=15_000)
    context.close()


def test_desktop_keyboard_turns_captions_on(browser, captioned_server, artifacts):
    """At 1440×900 with the keyboard: `c` turns English on, and the CC button shows a visible
    focus ring when focused after keyboard use."""
    context, page = open_page(browser, captioned_server, "/?tag=subs", viewport={"width": 1440, "height": 900})
    page.keyboard.press("c")
    button = page.locator(f"{CURRENT} [data-action='captions']")
    assert button.get_attribute("aria-label") == "Captions: English"
    page.wait_for_function(f"document.querySelector('{CURRENT} .captions-line').textContent === {ENGLISH!r}",
                           timeout=15_000)
    button.focus()
    assert button.evaluate("el => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle !== 'none'")
    page.screenshot(path=str(artifacts / "captions-english-1440.png"))
    context.close()
