"""The app shell's pure pieces, run in the browser on the served modules: the route table, the
search highlighter (case and diacritics folded, DOM-built <mark>s), the browse query helpers
and the "play in feed from here" URL round trip."""
import pytest

from app_helpers import open_app, SIZES


@pytest.fixture(scope="module")
def page(browser, catalog):
    context, page = open_app(browser, catalog["url"], SIZES[1].values[0], "/profile")
    page.wait_for_selector(".app-nav .nav-feed")
    yield page
    context.close()


def run(page, module: str, body: str, arg=None):
    return page.evaluate(f"async (arg) => {{ const m = await import('{module}'); {body} }}", arg)


@pytest.mark.parametrize("path, expected", [
    ("/", {"name": "feed", "id": None}), ("/discover", {"name": "discover", "id": None}),
    ("/p/42", {"name": "detail", "id": "42"}), ("/shelf/tag-7", {"name": "shelf", "id": "tag-7"}),
    ("/collection/3", {"name": "collection", "id": "3"}), ("/browse/", {"name": "browse", "id": None}),
    ("/p/abc", None), ("/shelf/a/b", None), ("/create.html", None),
])
def test_routes(page, path, expected):
    assert run(page, "/js/router.js", "return m.matchRoute(arg);", path) == expected


@pytest.mark.parametrize("title, terms, marks", [
    ("Crème brûlée", ["creme", "brulee"], ["Crème", "brûlée"]),
    ("Léon", ["leon"], ["Léon"]),
    ("Spider-Man", ["spider", "man"], ["Spider", "Man"]),
    ("Supercalifragilisticexpialidocious", ["fragilistic"], ["fragilistic"]),
    ("<img src=x onerror=alert(1)>", ["img"], ["img"]),
    ("Morning walk", ["quixotic"], []),
])
def test_highlight_marks_folded_matches_as_text(page, title, terms, marks):
    result = run(page, "/js/screens/search-highlight.js", """
        const el = document.createElement('span');
        m.highlightInto(el, arg[0], arg[1]);
        return { text: el.textContent, marks: [...el.querySelectorAll('mark')].map(x => x.textContent), elements: el.querySelectorAll('*').length };
    """, [title, terms])
    assert result["text"] == title, "the title is unchanged, only marked"
    assert result["marks"] == marks
    assert result["elements"] == len(marks), "nothing but <mark> elements: text never becomes markup"


def test_query_terms_leave_operators_out(page):
    terms = run(page, "/js/screens/search-highlight.js", "return m.queryTerms(arg);", 'tag:cats @maker -tag:dogs "mr robot" OR x')
    assert terms == ["cats", "maker", "mr", "robot", "x"]


def test_filter_count_and_play_in_feed_round_trip(page):
    count = run(page, "/js/screens/browse-query.js",
                "return m.activeFilterCount(new URLSearchParams(arg));", "sort=newest&tags=a,b&kind=video&seen=false")
    assert count == 4, "two tags, a kind and seen; the sort is no filter"
    url, back = run(page, "/js/feed/list-source.js", """
        const url = m.playInFeedURL({ kind: 'browse', query: new URLSearchParams('sort=newest&tags=cats&cursor=zz') }, 9);
        const list = m.listFromQuery(new URL(url, location.href).searchParams);
        return [url, { kind: list.kind, params: list.params.toString(), start: list.startId }];
    """)
    assert url == "/?from=browse&sort=newest&tags=cats&start=9"
    assert back == {"kind": "browse", "params": "sort=newest&tags=cats", "start": 9}
