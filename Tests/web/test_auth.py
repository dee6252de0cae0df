"""Signing in through the form and signing out."""
from conftest import PASSWORD, USER, new_context
from helpers import CURRENT


def test_login_form_wrong_password_then_sign_in_and_out(browser, library):
    context = new_context(browser, library["url"], signed_in=False)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("form input[name=username]")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", "wrong password")
    page.click("form button[type=submit]")
    page.wait_for_selector("#login-error:not([hidden])")
    assert "wrong" in page.inner_text("#login-error").lower()

    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(CURRENT)

    # Sign out is on Profile (the feed's top bar holds the feed's own controls only).
    assert page.locator(".topbar").get_by_text("Sign out").count() == 0
    page.goto("/profile")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("input[name=username]")
    assert page.locator("[data-item-id]").count() == 0
    assert context.request.get("/api/v1/me").status == 401
    page.reload()
    page.wait_for_selector("input[name=username]")
    context.close()
