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
    # The arbiter lets others' segments go once the video on screen has a cushion buffered (not
    # before its second segment is in); their playlists, keys and init sections, a round trip
    # of a few hundred bytes each, go at once.
    cushion_at = own[1]["end"]
    early = [e for e in others if e["start"] < cushion_at and e["path"].endswith(".m4s")]
    assert early == [], f"started before the on-screen video had its cushion ({cushion_at:.0f} ms): {early}"


FIRST_FRAME = """() => {
  const current = document.querySelector('[data-item-id][aria-current="true"]');
  return !current.classList.contains('kind-video') || Boolean(current.querySelector('video.ready'));
}"""


def test_images_load_only_near_the_screen_and_follow_the_user(page):
    LOADED = "els => els.map(e => [...e.querySelectorAll('.stage img')].some(i => i.hasAttribute('src')))"
    # Until the first video on screen shows its first frame only its own poster loads (below).
    page.wait_for_function(FIRST_FRAME, timeout=15_000)
    page.wait_for_function(f"() => ({LOADED})([...document.querySelectorAll('[data-item-id]')]).filter(Boolean).length >= 4",
                           timeout=5_000)
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


HELD_IMAGES = """() => {
  const items = [...document.querySelectorAll('[data-item-id]')];
  const current = document.querySelector('[data-item-id][aria-current="true"]');
  return { ready: Boolean(current.querySelector('video.ready')),
           loaded: items.map((e) => [...e.querySelectorAll('.stage img')].some((i) => i.hasAttribute('src'))) };
}"""


def test_a_first_videos_neighbours_load_their_images_only_after_its_first_frame(context):
    """A first visit's first segment shares a slow link with nothing but its own poster."""
    page = context.new_page()
    # The first video's segments come late, so there is a moment to look at before its first frame.
    page.add_init_script("""
      const realFetch = window.fetch;
      window.fetch = async (url, options) => {
        if (String(url).endsWith('.m4s')) await new Promise((resolve) => setTimeout(resolve, 1000));
        return realFetch(url, options);
      };""")
    page.goto("/?tag=web")   # videos only
    page.wait_for_selector('[data-item-id][aria-current="true"] .poster[src]', timeout=15_000)
    before = page.evaluate(HELD_IMAGES)
    page.wait_for_selector('[data-item-id][aria-current="true"] video.ready', timeout=15_000)
    page.wait_for_function(f"() => ({HELD_IMAGES})().loaded.filter(Boolean).length >= 4", timeout=5_000)
    page.close()
    assert not before["ready"] and before["loaded"][0] and not any(before["loaded"][1:]), before
