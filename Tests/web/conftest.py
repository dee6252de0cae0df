"""Fixtures for the web client's browser tests: a real library (ffmpeg clips imported by the
real `reelhouse` binary), a real `reelhouse serve` on 127.0.0.1, and Debian's Chromium driven
by Playwright. Each library is built once per run (≈ 40 s), also when pytest-xdist's workers
share the run (`built_once`); every test gets a fresh browser context that is already signed
in. The binary, the server launcher and the clip makers are Tests/pykit's, shared with the
end-to-end tests."""
import fcntl
import json
import os
import shutil
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared kit
from pykit import ROOT, cli  # noqa: E402
from pykit.cli import BIN  # noqa: E402,F401  (re-exported to the tests)
from pykit.media import FONT, ffmpeg, make_clip, make_image  # noqa: E402,F401
from pykit.plugins import register_shared_hooks  # noqa: E402
from pykit.server import LiveServer  # noqa: E402
from same_origin import name_the_origin  # noqa: E402


def pytest_configure(config):
    register_shared_hooks(config)


# Debian's Chromium as its headless shell (package chromium-headless-shell, the same build
# without the browser's UI layers): on this suite it does the same work for 23 % less CPU
# (1,546 → 1,188 CPU-s over the 320 tests on 2 cores) and all of them pass on it. The benches
# (scripts/bench_swipe.py) keep the full browser a person runs.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
ARTIFACTS = ROOT / "artifacts"
USER, PASSWORD = "viewer", "correct horse battery staple"
PHONE = {"width": 390, "height": 844}

SOURCES = ["testsrc2", "smptebars", "rgbtestsrc", "cellauto", "testsrc", "pal75bars", "yuvtestsrc", "life"]


def sidecar(path: Path, index: int, description: str, tags: list[str]) -> None:
    """A yt-dlp style `.info.json` next to the clip."""
    info = {
        "id": f"web{index:02d}", "title": f"Clip {index}", "description": description,
        "uploader": f"Uploader {index % 4}", "uploader_id": f"@creator{index % 4}",
        "upload_date": f"2024{1 + index // 28:02d}{index % 28 + 1:02d}", "tags": tags,
        "webpage_url": f"https://example.com/clips/web{index:02d}", "extractor": "generic",
    }
    path.with_suffix(".info.json").write_text(json.dumps(info))


def clip_plan() -> list[dict]:
    """18 clips: 14 encrypted in `clips/` (3 tagged ocean), and a `mixed` group of one encrypted
    and three clear clips, so the encrypted and clear paths, and a tampered key, can be tested
    on a small filtered feed."""
    plan = []
    for index in range(18):
        folder = "clips" if index < 14 else ("mixed-encrypted" if index == 14 else "mixed-clear")
        landscape = index in (3, 9)
        tags = ["web", "ocean" if index in (1, 5, 11) else "city"]
        plan.append({
            "index": index, "folder": folder, "label": f"clip {index}",
            "source": SOURCES[index % len(SOURCES)], "size": "640x360" if landscape else "360x640",
            "seconds": 4 + index % 3, "audio": index % 2 == 0, "tags": tags,
            "description": f"Clip number {index} from the web test library. "
                           f"It has a long description so the overlay clamps it to two lines, "
                           f"and tapping it shows the rest #{tags[1]}",
        })
    return plan


def reelhouse(data: Path, *args: str, stdin: str | None = None) -> str:
    """`reelhouse ARGS --data DATA`'s stdout; a failure fails the test."""
    return cli.run(data, *args, stdin=stdin).stdout


class Server(LiveServer):
    """`reelhouse serve` on `data`; without its worker unless asked (the feed tests import up front)."""

    def __init__(self, data: Path, log: Path, worker: bool = False, env: dict[str, str] | None = None):
        # The repository's client unless REELHOUSE_WEB_ROOT points at another build of it.
        web_root = os.environ.get("REELHOUSE_WEB_ROOT") or str(ROOT / "Web")
        super().__init__(data, args=() if worker else ("--no-worker",),
                         env={**(env or {}), "REELHOUSE_WEB_ROOT": web_root}, log_path=log)


def built_once(tmp_path_factory, name: str, build: Callable[[Path], Path], keep: str | None = None) -> tuple[Path, Path]:
    """(root, data) for a session fixture: a folder of this process's own and the data folder
    `build(folder)` makes. Under pytest-xdist every worker asks for the same library, and
    each needs a data folder of its own (its server writes there), but building it is mostly
    ffmpeg: the first worker builds it once in the run's shared folder, under a lock, and
    every worker starts from a copy (a few MB). `keep` (a REELHOUSE_WEB_* folder): built
    there once and reused on later runs, handy while working on the client."""
    if keep:
        root = Path(keep)
        return root, root / "data" if (root / "data" / "reelhouse.sqlite").exists() else build(root)
    root = tmp_path_factory.mktemp(name)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return root, build(root)
    run_folder = tmp_path_factory.getbasetemp().parent  # pytest-N, above each worker's own
    shared, made = run_folder / f"shared-{name}", run_folder / f"shared-{name}.data"
    with open(run_folder / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not made.exists():
            shutil.rmtree(shared, ignore_errors=True)
            made.write_text(str(build(shared)))
    data = root / "data"
    shutil.copytree(made.read_text(), data)
    return root, data


def build_library(root: Path) -> Path:
    sources, data = root / "sources", root / "data"
    plan = clip_plan()

    def make(entry: dict) -> None:
        path = sources / entry["folder"] / f"clip{entry['index']:02d}.mp4"
        make_clip(path, size=entry["size"], seconds=entry["seconds"], audio=entry["audio"], source=entry["source"],
                  label=entry["label"], frequency=300 + 40 * len(entry["label"]))
        sidecar(path, entry["index"], entry["description"], entry["tags"])

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(make, plan))
    # An instaloader-style carousel: X_1.jpg … X_3.jpg in one folder form one post.
    for number, source in enumerate(["smptehdbars", "testsrc2", "rgbtestsrc"], start=1):
        make_image(sources / "album" / f"2024-01-05_10-00-00_UTC_{number}.jpg", size="1080x1350", source=source,
                   label=f"slide {number}")

    reelhouse(data, "import", str(sources / "clips"), "--json")
    reelhouse(data, "import", str(sources / "mixed-encrypted"), "--tag", "mixed", "--json")
    reelhouse(data, "import", str(sources / "mixed-clear"), "--tag", "mixed", "--no-encryption", "--json")
    reelhouse(data, "import", str(sources / "album"), "--tag", "album", "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    return data


@pytest.fixture(scope="session")
def library(tmp_path_factory):
    # REELHOUSE_WEB_LIBRARY=DIR builds the library into DIR once and reuses it on later runs
    # (handy while working on the client; `make test` always builds a fresh one).
    root, data = built_once(tmp_path_factory, "web-library", build_library, keep=os.environ.get("REELHOUSE_WEB_LIBRARY"))
    plan = clip_plan()
    server = Server(data, root / "serve.log")
    yield {"url": server.url, "data": data, "plan": plan, "post_count": len(plan) + 1}
    server.stop()


def owner_only_server(root: Path) -> "Server":
    """A server on a new data folder holding only the owner (USER): no posts, one library."""
    reelhouse(root / "data", "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    return Server(root / "data", root / "serve.log")


@pytest.fixture(scope="session")
def empty_server(tmp_path_factory):
    server = owner_only_server(tmp_path_factory.mktemp("web-empty"))
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def playwright():
    """One Playwright driver for the whole run: its sync API refuses a second one alongside."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"],
    )
    yield name_the_origin(browser)
    browser.close()


_sessions: dict[str, dict] = {}


def signed_in_state(browser, base_url: str) -> dict:
    """One sign-in per server for the whole run (the server allows 15 sign-ins per 5 minutes);
    every context starts from a copy of its cookie."""
    if base_url not in _sessions:
        context = browser.new_context(base_url=base_url, bypass_csp=True)
        response = context.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD})
        assert response.ok, response.text()
        _sessions[base_url] = context.storage_state()
        context.close()
    return _sessions[base_url]


def new_context(browser, base_url: str, viewport: dict = PHONE, signed_in: bool = True, touch: bool = False):
    # Service workers would sit between the page and page.route(); the shell cache has its own test.
    state = signed_in_state(browser, base_url) if signed_in else None
    # bypass_csp: Playwright's string predicates are evaluated with eval, which the shell's
    # Content-Security-Policy (script-src 'self') rightly forbids; the app itself needs no eval.
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    return browser.new_context(base_url=base_url, viewport=viewport, service_workers="block", storage_state=state, bypass_csp=True, **extra)


def open_feed(context, path: str = "/"):
    page = context.new_page()
    page.goto(path)
    page.wait_for_selector('[data-item-id][aria-current="true"]', timeout=15_000)
    return page


@pytest.fixture
def context(browser, library):
    context = new_context(browser, library["url"])
    yield context
    context.close()


@pytest.fixture
def page(context):
    """A signed-in page showing the feed at a phone viewport."""
    return open_feed(context)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# The catalog library (Discover, Browse, Search): 44 image posts and 4 short clips — more than
# a page of a grid (24) — with titles the search must find as a person means them.
CATALOG_TITLES = [
    ("Léon", "A film night pick", ["film"]),
    ("Spider-Man", "Swinging through the city", ["film", "city"]),
    ("Mr. Robot", "A series about a hacker", ["series"]),
    ("Crème brûlée", "Torching the sugar crust", ["food"]),
    ("Supercalifragilisticexpialidocious", "A very long word", ["music"]),
    ("Whiskers at noon", "A cat in the sun", ["cats"]),
    ("Morning walk", "Along the river\nwith a quixotic detour past the mill", ["city"]),
    ("The Zebra crossing", "Stripes on the road", ["city"]),
    ("An apple a day", "Orchard harvest", ["food"]),
    ("Cats on a roof", "Three cats", ["cats"]),
]


def catalog_plan() -> list[dict]:
    plan = []
    for index in range(48):
        if index < len(CATALOG_TITLES):
            title, more, tags = CATALOG_TITLES[index]
        else:
            title, more, tags = f"Catalog post {index:02d}", f"Filler number {index}", ["filler"]
        plan.append({
            "index": index, "title": title, "tags": tags, "description": f"{title}\n{more}",
            "video": index >= 44, "uploader": f"Maker {'AB'[index % 2]}",
        })
    return plan


def build_catalog(root: Path) -> Path:
    sources, data = root / "sources", root / "data"
    for entry in catalog_plan():
        index = entry["index"]
        name = f"cat{index:02d}"
        if entry["video"]:
            path = make_clip(sources / f"{name}.mp4", size="360x640", seconds=2 + index % 3, audio=False,
                             source=SOURCES[index % len(SOURCES)], label=f"cat {index}")
        else:
            path = make_image(sources / f"{name}.jpg", size="360x640", source=SOURCES[index % len(SOURCES)], label=f"cat {index}")
        info = {
            "id": name, "title": entry["title"], "description": entry["description"],
            "uploader": entry["uploader"], "uploader_id": f"@maker{'ab'[index % 2]}",
            "upload_date": f"2024{1 + index % 12:02d}{1 + index % 28:02d}", "tags": entry["tags"],
            "webpage_url": f"https://example.com/catalog/{name}", "extractor": "generic",
        }
        Path(str(path).rsplit(".", 1)[0] + ".info.json").write_text(json.dumps(info))
    reelhouse(data, "import", str(sources), "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    return data


@pytest.fixture(scope="session")
def catalog(tmp_path_factory):
    root, data = built_once(tmp_path_factory, "web-catalog", build_catalog, keep=os.environ.get("REELHOUSE_WEB_CATALOG"))
    server = Server(data, root / "serve.log")
    yield {"url": server.url, "data": data, "plan": catalog_plan()}
    server.stop()


WATCH_CAPTIONS = {"en": "Crème brûlée, slowly — 日本語", "pt": "Olá — ação lenta"}


def build_watch_library(root: Path) -> Path:
    """A small library for the detail sheet and the full player: one 64 s clip (low-res, 10 fps,
    so resume has room: 30 s is inside 5 %–90 %) and two short clips with sidecars whose
    descriptions hold a link and a #tag, and whose source URLs are set."""
    sources, data = root / "sources", root / "data"
    make_clip(sources / "long" / "long01.mp4", size="180x320", seconds=64, rate=10, audio=True, label="long")
    sidecar(sources / "long" / "long01.mp4", 40, "A long clip for resume\nWatch it at https://example.org/long and see #resume", ["resume", "long"])
    # Subtitles in two languages (non-ASCII text) for the full player's captions menu.
    (sources / "long" / "long01.en.vtt").write_text(f"WEBVTT\n\n00:00:00.000 --> 00:01:04.000\n{WATCH_CAPTIONS['en']}\n", encoding="utf-8")
    (sources / "long" / "long01.pt.vtt").write_text(f"WEBVTT\n\n00:00:00.000 --> 00:01:04.000\n{WATCH_CAPTIONS['pt']}\n", encoding="utf-8")
    for index in (41, 42):
        path = sources / "short" / f"short{index}.mp4"
        make_clip(path, size="180x320", seconds=3, rate=15, audio=False, label=f"short {index}")
        sidecar(path, index, f"Short clip {index}\nMore at https://example.org/{index} #detail", ["detail", "short"])
    reelhouse(data, "import", str(sources / "long"), "--json")
    reelhouse(data, "import", str(sources / "short"), "--json")
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    return data


@pytest.fixture(scope="session")
def watch_library(tmp_path_factory):
    root, data = built_once(tmp_path_factory, "web-watch", build_watch_library)
    server = Server(data, root / "serve.log")
    yield {"url": server.url, "data": data}
    server.stop()


# Stories (issue 15): three people posting with `reelhouse import DIR --story --as USER`.
# Imported carol first and alice last, so a fresh viewer's tray reads alice, bob, carol
# (unseen first, newest first). alice: a 6 s video (three 2 s segments: the stall test), a 2 s
# video, a photo; bob: a photo, a 2 s video; carol: a 2 s video. `viewer(name)` is a signed-in
# browser state for a viewer of one's own (seen and liked are per viewer; each name signs in
# once per run, the server allows 15 sign-ins per 5 minutes).
STORY_PASSWORD = "story-viewer-password-1"
STORY_PEOPLE = {
    "carol": [("c1", "video", 2)],
    "bob": [("b1", "photo", 0), ("b2", "video", 2)],
    "alice": [("a1", "video", 6), ("a2", "video", 2), ("a3", "photo", 0)],
}


def make_story_media(folder: Path, name: str, kind: str, seconds: float, index: int) -> Path:
    if kind == "photo":
        return make_image(folder / f"{name}.jpg", size="720x1280", source=SOURCES[index % len(SOURCES)], label=f"story {name}")
    return make_clip(folder / f"{name}.mp4", size="360x640", seconds=seconds, rate=15, audio=True,
                     source=SOURCES[index % len(SOURCES)], label=f"story {name}", frequency=500 + 30 * index)


def import_story(data: Path, folder: Path, user: str) -> None:
    reelhouse(data, "import", str(folder), "--story", "--as", user, "--no-encryption", "--json")


def build_stories(root: Path) -> Path:
    sources, data = root / "sources", root / "data"
    reelhouse(data, "user", "add", USER, "--role", "owner", stdin=PASSWORD + "\n")
    index = 0
    for user, items in STORY_PEOPLE.items():
        reelhouse(data, "user", "add", user, "--role", "member", stdin=STORY_PASSWORD + "\n")
        for name, kind, seconds in items:
            make_story_media(sources / user, name, kind, seconds, index)
            index += 1
    for user in STORY_PEOPLE:
        import_story(data, sources / user, user)
    # Two ordinary posts, so the feed under the tray plays (and holds the pool) as it would.
    for number in range(2):
        make_clip(sources / "feed" / f"feed{number}.mp4", size="360x640", seconds=4, rate=15, audio=False,
                  source=SOURCES[number + 3], label=f"feed {number}")
    reelhouse(data, "import", str(sources / "feed"), "--no-encryption", "--json")
    return data


@pytest.fixture(scope="session")
def stories(tmp_path_factory, browser):
    root, data = built_once(tmp_path_factory, "web-stories", build_stories)
    # Every test signs in a viewer of its own (seen state is per viewer): more than the default 15 per 5 minutes.
    server = Server(data, root / "serve.log", env={"REELHOUSE_LOGIN_ATTEMPTS_PER_IP": "500"})
    states: dict[str, dict] = {}

    def viewer(name: str) -> dict:
        """Storage state of a signed-in member `name`: one of the fixture's people (alice, bob,
        carol), or a viewer of a test's own, created on first use."""
        if name not in states:
            if name not in STORY_PEOPLE:
                reelhouse(data, "user", "add", name, "--role", "member", stdin=STORY_PASSWORD + "\n")
            context = browser.new_context(base_url=server.url, bypass_csp=True)
            response = context.request.post("/api/v1/session", data={"username": name, "password": STORY_PASSWORD})
            assert response.ok, response.text()
            states[name] = context.storage_state()
            context.close()
        return states[name]

    def post_story(user: str, name: str, kind: str = "photo", seconds: float = 2) -> None:
        """One more story for `user`, imported while the server runs."""
        folder = root / "more" / name
        make_story_media(folder, name, kind, seconds, len(name))
        import_story(data, folder, user)

    yield {"url": server.url, "data": data, "viewer": viewer, "post_story": post_story, "people": STORY_PEOPLE}
    server.stop()


# For You (issue 16): nine short clear clips by three uploaders (one name with a space and an
# ampersand, so "Hide posts from …" and its undo carry a percent-encoded name), 3 s and 5 s
# long. Events, history and the hidden lists are per person: `viewer(name)` signs in an owner
# of its own (created on first use), so no test sees another's signals.
FORYOU_UPLOADERS = ["Ana Lima", "Ben", "Cleo & Co"]
FORYOU_PASSWORD = "for-you-viewer-password-1"


def foryou_plan() -> list[dict]:
    return [{"index": index, "uploader": FORYOU_UPLOADERS[index % 3], "seconds": 3 + 2 * (index % 2),
             "tag": ["sea", "city", "food"][index // 3], "title": f"For you clip {index}"} for index in range(9)]


def build_foryou(root: Path) -> Path:
    sources, data = root / "sources", root / "data"

    def make(entry: dict) -> None:
        path = make_clip(sources / f"fy{entry['index']:02d}.mp4", size="180x320", seconds=entry["seconds"], rate=15,
                         audio=False, source=SOURCES[entry["index"] % len(SOURCES)], label=f"fy {entry['index']}")
        info = {"id": f"fy{entry['index']:02d}", "title": entry["title"], "description": f"{entry['title']}\nby {entry['uploader']}",
                "uploader": entry["uploader"], "upload_date": f"202401{entry['index'] + 1:02d}", "tags": [entry["tag"]],
                "webpage_url": f"https://example.com/fy/{entry['index']}", "extractor": "generic"}
        path.with_suffix(".info.json").write_text(json.dumps(info))

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(make, foryou_plan()))
    reelhouse(data, "import", str(sources), "--no-encryption", "--json")
    return data


@pytest.fixture(scope="session")
def foryou(tmp_path_factory, browser):
    root, data = built_once(tmp_path_factory, "web-foryou", build_foryou, keep=os.environ.get("REELHOUSE_WEB_FORYOU"))
    server = Server(data, root / "serve.log", env={"REELHOUSE_LOGIN_ATTEMPTS_PER_IP": "500"})
    states: dict[str, dict] = {}
    made = iter(range(1_000_000))

    def viewer(prefix: str = "fy") -> dict:
        """Storage state of a new signed-in owner (every call: a person without any events)."""
        name = f"{prefix}{os.getpid()}x{next(made)}"
        reelhouse(data, "user", "add", name, "--role", "owner", stdin=FORYOU_PASSWORD + "\n")
        context = browser.new_context(base_url=server.url, bypass_csp=True)
        response = context.request.post("/api/v1/session", data={"username": name, "password": FORYOU_PASSWORD})
        assert response.ok, response.text()
        states[name] = context.storage_state()
        context.close()
        return states[name]

    yield {"url": server.url, "data": data, "plan": foryou_plan(), "viewer": viewer}
    server.stop()
