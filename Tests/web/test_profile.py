"""Profile at 390×844 (touch) and 1440×900 (mouse + keyboard): who you are, preferences that
stick (and data saver reaching the engine), the library switcher, API keys (created, used as a
Bearer token against /api/v1/me, refused after revoke), change password, about."""
import pytest

from conftest import PASSWORD, reelhouse
from detail_helpers import DESKTOP, context_for, shot

PROFILE = ".profile"


@pytest.fixture(params=["phone", "desktop"])
def size(request):
    return request.param


@pytest.fixture
def ctx(browser, watch_library, size):
    context = context_for(browser, watch_library["url"], size)
    yield context
    context.close()


def open_profile(page) -> None:
    """/profile, as the app's router shows it."""
    page.goto("/profile")
    page.wait_for_selector(f"{PROFILE} .profile-name", timeout=10_000)


def test_profile_shows_who_you_are_and_about(ctx, size, artifacts):
    page = ctx.new_page()
    open_profile(page)
    profile = page.locator(PROFILE)
    assert profile.locator(".profile-name").inner_text() == "viewer"
    assert "owner" in profile.locator(".profile-role").inner_text()
    page.wait_for_function("() => document.querySelector('[data-about=version]').textContent !== '…'")
    assert profile.locator("[data-about=version]").inner_text() == "Reelhouse API 1.0.0"
    page.wait_for_function("() => document.querySelector('[data-about=health]').textContent === 'Up'")
    assert profile.locator("[data-about=server]").inner_text() == page.evaluate("location.origin")
    assert profile.get_by_role("button", name="Sign out").is_visible()
    shot(page, artifacts, f"profile-{size}")
    page.locator(PROFILE).locator(".profile-card").last.scroll_into_view_if_needed()
    shot(page, artifacts, f"profile-bottom-{size}")


def test_preferences_are_remembered(ctx, size):
    page = ctx.new_page()
    open_profile(page)
    saver = page.locator("input[name=data-saver]")
    assert not saver.is_checked()
    saver.tap() if size == "phone" else saver.check()
    page.locator("input[name=autoplay-next]").check()
    assert page.evaluate("localStorage.getItem('reelhouse.dataSaver')") == "true"
    page.reload()
    open_profile(page)
    assert page.locator("input[name=data-saver]").is_checked()
    assert page.locator("input[name=autoplay-next]").is_checked()
    # The engine reads it on each rung choice: with data saver, every choice is the lowest rung.
    lowest = page.evaluate("""() => import('/js/player/abr.js').then(({ chooseVariant }) => {
        const variants = [{ width: 360, height: 640, bandwidth: 4e5 }, { width: 720, height: 1280, bandwidth: 2e6 }];
        return [chooseVariant(variants, { throughputBps: 5e7, dataSaver: true }), chooseVariant(variants, { throughputBps: 5e7 })];
    })""")
    assert lowest == [0, 1]
    page.locator("input[name=data-saver]").uncheck()
    assert page.evaluate("localStorage.getItem('reelhouse.dataSaver')") == "false"


def test_api_key_create_use_revoke(ctx, size, artifacts):
    page = ctx.new_page()
    open_profile(page)
    name = f"script on {size}"
    page.fill("input[name=key-name]", name)
    page.get_by_role("button", name="Create key").click()
    secret_box = page.locator(".profile-secret-value")
    secret_box.wait_for()
    secret = secret_box.inner_text()
    assert secret.startswith("rh_")
    shot(page, artifacts, f"profile-key-{size}")
    row = page.locator(".profile-keys li", has_text=name)
    assert row.is_visible()
    # The key works, for a client with no cookie.
    api = page.context.request
    me = page.evaluate("""(secret) => fetch('/api/v1/me', { credentials: 'omit', headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status)""", secret)
    assert me == 200
    # The secret is not in the list (shown once), and after Done it is gone from the page.
    page.get_by_role("button", name="Done").click()
    assert secret not in page.locator(PROFILE).inner_text()
    row.get_by_role("button", name="Revoke").click()
    row.locator("[data-action=confirm-revoke]").click()
    page.wait_for_function("(n) => ![...document.querySelectorAll('.profile-keys li')].some((li) => li.textContent.includes(n))", arg=name)
    after = page.evaluate("""(secret) => fetch('/api/v1/me', { credentials: 'omit', headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status)""", secret)
    assert after == 401
    assert all(key["name"] != name for key in api.get("/api/v1/me/keys").json()["keys"])


def test_library_switcher(ctx, size):
    libraries = ctx.request.get("/api/v1/libraries").json()["libraries"]
    page = ctx.new_page()
    open_profile(page)
    page.evaluate("() => { window.__switched = []; reelhouse.store.subscribe('library', (id) => __switched.push(id)); }")
    first = libraries[0]
    option = page.locator(".profile-library", has_text=first["name"]).locator("input")
    option.check()
    page.wait_for_function("() => __switched.length > 0")
    current = page.evaluate("() => import('/js/state/library.js').then((m) => m.currentLibrary())")
    assert current == first["id"]
    assert page.locator(".profile-libraries [role=status], .profile-status", has_text=f"Showing {first['name']}").count() >= 1
    page.reload()
    open_profile(page)
    page.wait_for_selector(".profile-library input:checked")
    assert page.locator(".profile-library", has=page.locator("input:checked")).inner_text().startswith(first["name"])


def test_change_password(browser, watch_library, size):
    user = f"changer{size}"
    reelhouse(watch_library["data"], "user", "add", user, "--role", "member", stdin=PASSWORD + "\n")
    context = browser.new_context(base_url=watch_library["url"], viewport=DESKTOP, service_workers="block", bypass_csp=True)
    try:
        assert context.request.post("/api/v1/session", data={"username": user, "password": PASSWORD}).ok
        page = context.new_page()
        open_profile(page)
        # Right under the account: a new owner is told at first start to change it "under Profile".
        headings = page.locator(".profile-card h2").all_inner_texts()
        assert headings[:2] == ["Account", "Password"], headings
        page.fill("input[name=current-password]", "not the password")
        page.fill("input[name=new-password]", "a brand new password")
        page.fill("input[name=confirm-password]", "a brand new password")
        page.get_by_role("button", name="Change password").click()
        page.wait_for_function("() => document.querySelector('.profile-form .profile-status').textContent.includes('wrong')")
        page.fill("input[name=current-password]", PASSWORD)
        page.fill("input[name=new-password]", "a brand new password")
        page.fill("input[name=confirm-password]", "a brand new password")
        page.get_by_role("button", name="Change password").click()
        page.wait_for_function("() => document.querySelector('.profile-form .profile-status').textContent.includes('Password changed')")
        fresh = browser.new_context(base_url=watch_library["url"])
        assert fresh.request.post("/api/v1/session", data={"username": user, "password": "a brand new password"}).ok
        assert fresh.request.post("/api/v1/session", data={"username": user, "password": PASSWORD}).status == 401
        fresh.close()
    finally:
        context.close()
