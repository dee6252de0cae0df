"""What the page downloads first. On a slow link every request shares the same bytes per second,
so the video on screen must not wait behind its neighbours' segments or a page of posters."""
from conftest import open_feed
from helpers import swipe_next

READ_MEDIA_REQUESTS = """() => ({
  current: document.querySelector('[aria-current="true"]').dataset.itemId,
  media: performance.getEntriesByType('resource')
    .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd }))
    .filter((e) => e.path.startsWith('/media/')),
})"""


# The on-screen item has asked for two segments and all three players are ready.
WAIT_CUSHION_AND_NEIGHBOURS = """() => {
  const current = document.querySelector('[aria-current="true"]').dataset.itemId;
  const own = performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('.m4s') && new URL(e.name).pathname.split('/')[3] === current);
  return own.length >= 2 && document.querySelectorAll('video.ready').length === 3;
}"""


def post_of(path: str) -> str:
    # /media/<token>/<post id>/<rung>/<file>
    return path.split("/")[3]


def test_the_video_on_screen_downloads_two_segments_before_any_neighbour_starts(context):
    page = open_feed(context, "/?tag=web")  # videos only, so the first item has a player
    page.wait_for_function(WAIT_CUSHION_AND_NEIGHBOURS, timeout=20_000)
    report = page.evaluate(READ_MEDIA_REQUESTS)
    page.close()
    own = sorted((e for e in report["media"] if post_of(e["path"]) == report["current"] and e["path"].endswith(".m4s")),
                 key=lambda e: e["start"])
    others = [e for e in report["media"] if post_of(e["path"]) != report["current"]]
    assert len(own) >= 2 and others, report
    # The arbiter lets others go once the video on screen has two segments (its cushion) buffered.
    cushion_at = own[1]["end"]
    early = [e for e in others if e["start"] < cushion_at]
    assert early == [], f"started before the on-screen video had its cushion ({cushion_at:.0f} ms): {early}"


def test_images_load_only_near_the_screen_and_follow_the_user(page):
    LOADED = "els => els.map(e => [...e.querySelectorAll('.stage img')].some(i => i.hasAttribute('src')))"
    loaded = page.eval_on_selector_all("[data-item-id]", LOADED)
    assert len(loaded) >= 8, loaded
    # The item on screen and the next three; nothing further down has asked for its picture yet.
    assert loaded[:4] == [True] * 4 and not any(loaded[4:]), loaded
    requested = page.evaluate("() => performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.startsWith('/img/')).length")
    assert requested <= 4 + 4, requested  # at most a carousel's eager first slide per item, plus posters
    swipe_next(page)
    loaded = page.eval_on_selector_all("[data-item-id]", LOADED)
    assert loaded[:5] == [True] * 5 and not any(loaded[5:]), loaded
    # A video's poster is its small thumbnail: it only covers the wait for the first frame.
    posters = page.eval_on_selector_all(".poster[src]", "imgs => imgs.map(i => new URL(i.src).pathname)")
    assert posters and all(p.endswith("/thumb.jpg") for p in posters), posters
