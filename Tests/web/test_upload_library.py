"""The create page's upload screen chooses the library an upload lands in: no picker while the
person sees one library; with two, a picker set at first to the library chosen in Profile,
whose id goes with the upload as tus metadata `library`. Each upload is followed to its post
and the post's `library_id` checked. At 390×844 touch and 1440×900 mouse + keyboard."""
from pathlib import Path

import pytest

from conftest import FONT, PASSWORD, USER, ffmpeg
from create_fixtures import create_server  # noqa: F401  (a fixture, used by name)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
_state: dict[str, dict] = {}


def open_upload(browser, server, size: str, chosen_library: int | None = None):
    """A signed-in context at `size` whose Profile choice of library is `chosen_library`."""
    if server.url not in _state:
        probe = browser.new_context(base_url=server.url)
        assert probe.request.post("/api/v1/session", data={"username": USER, "password": PASSWORD}).ok
        _state[server.url] = probe.storage_state()
        probe.close()
    extra = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    context = browser.new_context(base_url=server.url, viewport=PHONE if size == "phone" else DESKTOP,
                                  service_workers="block", storage_state=_state[server.url], **extra)
    me = context.request.get("/api/v1/me").json()
    if chosen_library is not None:
        # What Profile's library picker stores (Web/js/state/library.js), per user.
        context.add_init_script(f"localStorage.setItem('reelhouse.library.{me['id']}', '{chosen_library}')")
    page = context.new_page()
    page.goto("/create.html#upload")
    page.wait_for_selector("#panel-upload:not([hidden])")
    return context, page


def small_clip(path: Path) -> Path:
    """A 2 s clip whose pixels differ per name (the server would take identical bytes for a
    post it already has)."""
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=360x640:rate=15", "-t", "2",
           "-vf", f"drawtext=fontfile={FONT}:text='{path.stem}':fontsize=48:fontcolor=white:x=20:y=h*0.4",
           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path))
    return path


def upload_and_follow(page, clip: Path) -> int:
    metadata: list[str] = []
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/api/v1/uploads")
            and metadata.append(request.headers.get("upload-metadata", "")))
    page.set_input_files("#file-input", str(clip))
    page.wait_for_selector("#upload-list .upload-row[data-state=published]", timeout=180_000)
    page.metadata = metadata
    return int(page.locator("#upload-list .upload-row .post-link").last.get_attribute("data-post-id"))


def library_key(metadata: str) -> str | None:
    import base64
    for pair in metadata.split(","):
        key, _, value = pair.strip().partition(" ")
        if key == "library":
            return base64.b64decode(value).decode()
    return None


def test_one_library_no_picker(browser, create_server, tmp_path):  # noqa: F811
    context, page = open_upload(browser, create_server, "desktop")
    try:
        libraries = context.request.get("/api/v1/libraries").json()["libraries"]
        assert len(libraries) == 1
        page.wait_for_load_state("networkidle")
        assert page.is_hidden("#upload-library-field"), "one library: nothing to choose"
        post_id = upload_and_follow(page, small_clip(tmp_path / "one.mp4"))
        assert library_key(page.metadata[0]) is None, "no choice sent: the server's default"
        assert context.request.get(f"/api/v1/videos/{post_id}").json()["library_id"] == libraries[0]["id"]
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_upload_lands_in_the_chosen_library(browser, create_server, size, tmp_path):  # noqa: F811
    from conftest import ARTIFACTS
    probe_context, _ = open_upload(browser, create_server, "desktop")
    libraries = probe_context.request.get("/api/v1/libraries").json()["libraries"]
    family = next((lib for lib in libraries if lib["name"] == "Family"), None)
    if family is None:
        response = probe_context.request.post("/api/v1/libraries", data={"name": "Family"})
        assert response.status == 201, response.text()
        family = response.json()
    first = next(lib for lib in libraries if lib["name"] != "Family")
    probe_context.close()

    # Profile's choice is Family: the picker starts there.
    context, page = open_upload(browser, create_server, size, chosen_library=family["id"])
    try:
        field = page.locator("#upload-library-field")
        field.wait_for(state="visible", timeout=10_000)
        picker = page.locator("select[name=library]")
        assert picker.evaluate("s => [...s.options].map(o => o.textContent)") == [lib["name"] for lib in sorted([first, family], key=lambda l: l["id"])]
        assert picker.input_value() == str(family["id"])
        assert page.evaluate("s => s.options[s.selectedIndex].textContent", picker.element_handle()) == "Family"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"create-{size}.png"))

        target = family
        if size == "desktop":
            # Another library, chosen from the keyboard.
            picker.focus()
            page.keyboard.press("ArrowUp" if first["id"] < family["id"] else "ArrowDown")
            assert picker.input_value() == str(first["id"])
            target = first
        page.fill("#upload-fields textarea[name=description]", f"Into {target['name']} from the {size}")
        post_id = upload_and_follow(page, small_clip(tmp_path / f"{size}.mp4"))
        assert library_key(page.metadata[-1]) == str(target["id"])
        response = context.request.get(f"/api/v1/videos/{post_id}")
        assert response.ok, response.text()
        video = response.json()
        assert video["library_id"] == target["id"]
        assert video["description"] == f"Into {target['name']} from the {size}"
        page.screenshot(path=str(ARTIFACTS / f"create-uploaded-{size}.png"))
    finally:
        context.close()
