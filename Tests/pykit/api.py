"""Plain HTTP against a live server with urllib: any status comes back as data, a dict body is
sent as JSON, and a session cookie is one call away."""
import json
import urllib.error
import urllib.request


def http(url: str, method: str = "GET", headers: dict | None = None, body: bytes | dict | None = None, timeout: float = 60):
    """One request: (status, headers, body bytes) for any status; a dict body is sent as JSON."""
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def sign_in(base: str, username: str, password: str, timeout: float = 30) -> tuple[str, str]:
    """POST /api/v1/session; returns the `name=value` cookie to send back and the full Set-Cookie
    header (for tests of its attributes)."""
    status, headers, body = http(base + "/api/v1/session", "POST", body={"username": username, "password": password},
                                 timeout=timeout)
    assert status == 200, body
    set_cookie = headers["Set-Cookie"]
    return set_cookie.split(";")[0], set_cookie
