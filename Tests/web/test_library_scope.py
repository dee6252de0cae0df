"""Which library a listing shows, once there are several (issue 29: nothing said so)."""
import pytest

from app_helpers import DESKTOP, PHONE
from conftest import new_context, owner_only_server


@pytest.fixture
def two_libraries(tmp_path_factory):
    """A server of its own per test: the test adds a library to it."""
    server = owner_only_server(tmp_path_factory.mktemp("web-two-libraries"))
    yield server.url
    server.stop()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_discover_and_browse_say_which_library_once_there_are_several(browser, two_libraries, viewport):
    context = new_context(browser, two_libraries, viewport=viewport)
    try:
        page = context.new_page()
        page.goto("/discover")
        page.wait_for_selector(".discover")
        scope = page.locator(".library-scope")
        page.wait_for_timeout(300)
        assert scope.is_hidden(), "one library: nothing to say"

        made = context.request.post("/api/v1/libraries", data={"name": f"Travel {viewport['width']}"})
        assert made.ok, made.text()
        travel = made.json()["id"]
        page.reload()
        scope.wait_for(state="visible")
        assert scope.inner_text() == "All libraries"
        assert scope.get_attribute("href") == "/profile#libraries"

        page.evaluate(f"import('/js/state/library.js').then(m => m.setLibrary(reelhouse.store, {travel}))")
        page.wait_for_function("name => document.querySelector('.library-scope')?.textContent === name", arg=f"Library: Travel {viewport['width']}")
        page.goto("/browse")
        page.wait_for_function("name => document.querySelector('.library-scope:not([hidden])')?.textContent === name", arg=f"Library: Travel {viewport['width']}")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page stays as wide as the screen"
        page.evaluate("import('/js/state/library.js').then(m => m.setLibrary(reelhouse.store, null))")
        page.wait_for_function("() => document.querySelector('.library-scope')?.textContent === 'All libraries'")
    finally:
        context.close()
