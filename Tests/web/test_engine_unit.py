"""The player engine's unit tests run in real Chromium (WebCrypto, fetch, modules) from a
static server rooted at the repository, so the shipped modules are what is tested."""
import functools
import http.server
import json
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def static_server():
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("page_name, at_least", [("unit.html", 34), ("expiry.html", 12), ("captions.html", 5), ("app.html", 19), ("playback.html", 13)])
def test_engine_units_pass_in_chromium(browser, static_server, page_name, at_least):
    """unit.html: the engine's pure parts; expiry.html: media keys, the URL refresh and recovery; captions.html:
    subtitle renditions, WebVTT segments and the caption track; app.html: the detail sheet's, full player's
    and cast's pure parts and the feed's pool on a lease; playback.html: the playback service's lease rules."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{static_server}/Tests/web/engine_unit/{page_name}")
    page.wait_for_function("() => window.__results !== undefined", timeout=30000)
    results = page.evaluate("() => window.__results")
    page.close()
    assert not errors, errors
    assert results["failed"] == [], json.dumps(results["failed"], indent=2)
    assert len(results["passed"]) >= at_least, results
