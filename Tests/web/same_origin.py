"""Playwright's `context.request` is a script sharing the page's session cookie, and it sends no
`Origin`: the server refuses a cookie-authenticated write without one, as it would from another
site. Tests use it for setup as the page itself would write, so every context made with a
`base_url` names that origin on its requests, as Chromium does on the page's own writes."""


def name_the_origin(browser):
    """Wraps `browser.new_context` so contexts with a base URL send `Origin: <base URL>`."""
    new_context = browser.new_context

    def with_origin(*args, **kwargs):
        base = kwargs.get("base_url")
        if base:
            kwargs["extra_http_headers"] = {"Origin": base.rstrip("/"), **kwargs.get("extra_http_headers", {})}
        return new_context(*args, **kwargs)

    browser.new_context = with_origin
    return browser
