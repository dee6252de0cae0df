"""A day in an hour (`make soak`, outside CI; issue 28, part 6).

One signed-in, phone-sized Chromium tab swipes the feed of a real `reelhouse serve` (SQLite,
its worker on) for SOAK_MINUTES (60), with media tokens that live 2 minutes (30 expiries in an
hour). Halfway the server is killed and started again on the same port with a new secret (every
URL issued before dies, every cursor is refused). Every SOAK_UPLOAD_MINUTES (5) a clip is
uploaded through the API (tus, with an API key) and must be published.

Printed at the end, and the exit status is 1 when a limit is broken:
- error screens seen (a failed item, the feed's error state, the sign-in page): must be 0;
- stalls: a playing video of the item on screen waiting for data more than 1 s: at most 1;
- uploads published, of those sent;
- the server's resident memory and open file descriptors after the first minute and at the end;
- the SQLite database and its WAL at the end (the WAL is checkpointed, so it stays small).

SOAK_MINUTES=6 gives a short run with the same events (the restart at 3 min, an upload a minute
when SOAK_UPLOAD_MINUTES=1)."""
import base64
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "Tests" / "web"))

from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import CHROMIUM, PASSWORD, PHONE, USER, build_library  # noqa: E402
from helpers import CURRENT, current_kind, swipe_next, wait_playing  # noqa: E402
from pykit import cli  # noqa: E402
from pykit.api import http  # noqa: E402
from pykit.media import make_clip  # noqa: E402
from pykit.server import LiveServer  # noqa: E402
from same_origin import name_the_origin  # noqa: E402

MINUTES = float(os.environ.get("SOAK_MINUTES", "60"))
UPLOAD_MINUTES = float(os.environ.get("SOAK_UPLOAD_MINUTES", "5"))
TOKEN_WINDOW = int(os.environ.get("SOAK_TOKEN_WINDOW", "120"))
SECONDS_PER_ITEM = 6
STALL_MS = 1000

# In the page: stalls of the item on screen once it has played (a first frame is not a stall).
STALL_PROBE = """
(() => {
  window.__stalls = [];
  document.addEventListener('playing', (event) => {
    const video = event.target;
    if (video.__waitingSince !== undefined) {
      const waited = performance.now() - video.__waitingSince;
      const item = video.closest('[data-item-id]');
      if (video.__played && item && item.getAttribute('aria-current') === 'true') window.__stalls.push(Math.round(waited));
    }
    video.__waitingSince = undefined;
    video.__played = true;
  }, true);
  document.addEventListener('waiting', (event) => { event.target.__waitingSince ??= performance.now(); }, true);
  document.addEventListener('emptied', (event) => { event.target.__played = false; event.target.__waitingSince = undefined; }, true);
})();
"""

ERROR_SCREEN = """() => {
  const failed = [...document.querySelectorAll('.reel.failed')].map((el) => el.dataset.itemId + ':' + el.dataset.errorCode);
  const state = document.getElementById('feed-state');
  const feed = document.getElementById('feed-view');
  return { failed, feedState: state && !state.hidden ? state.dataset.state : null, signedOut: !feed || feed.hidden };
}"""


def process_figures(pid: int) -> tuple[int, int]:
    """Resident memory (KiB) and open file descriptors of `pid`."""
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def header(headers: dict, name: str) -> str | None:
    return next((value for key, value in headers.items() if key.lower() == name.lower()), None)


def upload(base: str, key: str, clip: Path) -> int | None:
    """A whole tus upload (create, one PATCH); the post id once the import names it."""
    data = clip.read_bytes()
    name = base64.b64encode(clip.name.encode()).decode()
    tus = {"Tus-Resumable": "1.0.0", "api-key": key}
    status, headers, body = http(base + "/api/v1/uploads", "POST",
                                 {**tus, "Upload-Length": str(len(data)), "Upload-Metadata": f"filename {name}"})
    if status != 201:
        print(f"  upload refused: {status} {body[:200]!r}")
        return None
    location = header(headers, "Location")
    location = location[location.index("/api/"):]
    status, _, body = http(base + location, "PATCH",
                           {**tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}, data)
    if status != 204:
        print(f"  upload PATCH: {status} {body[:200]!r}")
        return None
    for _ in range(600):
        status, headers, _ = http(base + location, "HEAD", tus)
        if status == 200 and header(headers, "Upload-Post-Id"):
            return int(header(headers, "Upload-Post-Id"))
        time.sleep(0.5)
    return None


def published(base: str, key: str, post_id: int) -> bool:
    status, _, body = http(base + f"/api/v1/videos/{post_id}", headers={"api-key": key})
    return status == 200 and bool(json.loads(body)["media"]["master"])


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="reelhouse-soak-"))
    print(f"building the library in {root} …")
    data, _ = build_library(root)
    env = {"REELHOUSE_MEDIA_TOKEN_WINDOW": str(TOKEN_WINDOW), "REELHOUSE_MEDIA_TOKEN_MARGIN": "0",
           "REELHOUSE_WEB_ROOT": str(ROOT / "Web")}
    server = LiveServer(data, env=env, log_path=root / "serve.log", startup_timeout=60)
    key = cli.run(data, "key", "create", "--user", USER).stdout.strip()
    started = time.monotonic()
    end = started + MINUTES * 60
    halfway = started + MINUTES * 30
    next_upload = started + UPLOAD_MINUTES * 60
    restarted = False
    errors: list[tuple[float, dict]] = []
    sent: list[int | None] = []
    swipes = 0
    figures: list[tuple[int, int]] = []  # (RSS KiB, fds): each process after its first minute and at its end
    measured_since = started

    with sync_playwright() as driver:
        browser = name_the_origin(driver.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"]))
        context = browser.new_context(base_url=server.url, viewport=PHONE, service_workers="block", bypass_csp=True)
        answer = context.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD})
        assert answer.ok, answer.text()
        page = context.new_page()
        page.add_init_script(STALL_PROBE)
        page.goto("/")
        page.wait_for_selector(CURRENT, timeout=30_000)
        while time.monotonic() < end:
            now = time.monotonic()
            if len(figures) % 2 == 0 and now - measured_since >= 60:
                figures.append(process_figures(server.process.pid))
            if not restarted and now >= halfway:
                # A crash and a new secret: every URL and cursor the page holds dies at once.
                if len(figures) % 2 == 1:
                    figures.append(process_figures(server.process.pid))
                server.kill()
                (data / "secret.key").write_bytes(os.urandom(32))
                server = LiveServer(data, env=env, log_path=root / "serve-again.log", port=server.port, startup_timeout=60)
                restarted = True
                measured_since = time.monotonic()
                print(f"{(now - started) / 60:5.1f} min: server killed and restarted with a new secret")
            if now >= next_upload:
                clip = make_clip(root / "uploads" / f"upload-{len(sent)}.mp4", seconds=3, frequency=200 + 20 * len(sent))
                sent.append(upload(server.url, key, clip))
                next_upload += UPLOAD_MINUTES * 60
                print(f"{(now - started) / 60:5.1f} min: uploaded post {sent[-1]}")
            try:
                swipe_next(page)
                swipes += 1
                if current_kind(page) == "video":
                    wait_playing(page, timeout=20_000)
            except Exception as error:  # a swipe that does not land is reported as what the screen shows
                print(f"{(now - started) / 60:5.1f} min: swipe {swipes}: {type(error).__name__}")
            screen = page.evaluate(ERROR_SCREEN)
            if screen["failed"] or screen["feedState"] or screen["signedOut"]:
                errors.append((round((time.monotonic() - started) / 60, 1), screen))
            time.sleep(SECONDS_PER_ITEM)
        stalls = [ms for ms in page.evaluate("window.__stalls") if ms > STALL_MS]
        browser.close()

    if len(figures) % 2 == 1:
        figures.append(process_figures(server.process.pid))
    # The last upload may still be transcoding: a couple of minutes for it.
    deadline = time.monotonic() + 180
    while True:
        done = [post for post in sent if post is not None and published(server.url, key, post)]
        if len(done) == len(sent) or time.monotonic() > deadline:
            break
        time.sleep(2)
    database = data / "reelhouse.sqlite"
    wal = data / "reelhouse.sqlite-wal"
    server.stop()
    print(f"soak: {MINUTES:g} min, token window {TOKEN_WINDOW} s ({int(MINUTES * 60 // TOKEN_WINDOW)} expiries), "
          f"{swipes} swipes, one restart with a new secret")
    print(f"  error screens: {len(errors)} {errors[:3]}")
    print(f"  stalls over {STALL_MS} ms: {len(stalls)} {stalls[:5]}")
    print(f"  uploads published: {len(done)} of {len(sent)}")
    for run, (first, last) in enumerate(zip(figures[0::2], figures[1::2]), start=1):
        print(f"  server process {run}: RSS {first[0] / 1024:.1f} MiB after its first minute → {last[0] / 1024:.1f} MiB at its end; "
              f"open fds {first[1]} → {last[1]}")
    print(f"  SQLite: database {database.stat().st_size / 1024:.0f} KiB, WAL "
          f"{(wal.stat().st_size if wal.exists() else 0) / 1024:.0f} KiB")
    return 0 if not errors and len(stalls) <= 1 and len(done) == len(sent) else 1


if __name__ == "__main__":
    sys.exit(main())
