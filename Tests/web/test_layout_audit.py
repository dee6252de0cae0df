"""The layout audit (issue 29): each screen at 390×844 touch, 768×1024 touch and 1440×900 — no
sideways scroll, no control outside the viewport, no text clipped or wrapped in a button or pill.
Screenshots of each state under artifacts/layout/. Touch targets of 44 px on touch screens are
not all there yet: REELHOUSE_AUDIT_TOUCH_TARGETS=1 adds that check, to list what remains."""
import os

import pytest

from app_helpers import open_app

SIZES = {
    "phone": ({"width": 390, "height": 844}, True),
    "tablet": ({"width": 768, "height": 1024}, True),
    "desktop": ({"width": 1440, "height": 900}, False),
}
ROUTES = ["/", "/discover", "/browse", "/browse?sort=newest&tags=cats", "/search", "/search?q=cat", "/favorites", "/profile"]

AUDIT = """(check) => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''} "${(el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;
  const shown = (el) => {
    if (el.closest('[hidden], [aria-hidden="true"], [inert]')) return false;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && r.bottom > 0 && r.top < innerHeight;
  };
  const scrollsSideways = (el) => {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if ((x === 'auto' || x === 'scroll') && up.scrollWidth > up.clientWidth) return true;
    }
    return false;
  };
  if (document.scrollingElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${document.scrollingElement.scrollWidth} px in ${width}`);
  for (const screen of document.querySelectorAll('#screens, .screen')) {
    if (shown(screen) && screen.scrollWidth > screen.clientWidth + 1 && getComputedStyle(screen).overflowX !== 'hidden') problems.push(`${name(screen)} scrolls sideways`);
  }
  for (const el of document.querySelectorAll('button, a.button, .pill, .chip, [role="button"], select, input')) {
    if (!shown(el) || scrollsSideways(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 || r.left < -1) problems.push(`${name(el)} is outside the viewport (${Math.round(r.left)}…${Math.round(r.right)} of ${width})`);
    if (el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && el.scrollWidth > el.clientWidth + 2 && getComputedStyle(el).textOverflow !== 'ellipsis') problems.push(`${name(el)} cuts its text (${el.scrollWidth} in ${el.clientWidth})`);
    const text = (el.innerText || '').trim();
    if (text && text.length <= 24 && !text.includes('\\n')) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter((q) => q.width > 1).map((q) => Math.round(q.bottom / 6)));
      if (tops.size > 1) problems.push(`${name(el)} wraps its label`);
    }
    if (check === 'targets' && (r.width < 43.5 || r.height < 43.5) && el.tagName !== 'INPUT') {
      // The target may be larger than what is drawn (padding, ::before): ask the point 22 px off its centre.
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const hits = [[cx - 21, cy], [cx + 21, cy], [cx, cy - 21], [cx, cy + 21]].map(([x, y]) => document.elementFromPoint(x, y));
      if (!hits.every((hit) => hit && (hit === el || el.contains(hit) || hit.contains(el) && hit.closest('button, a, [role="button"]') === el))) {
        problems.push(`${name(el)} is a ${Math.round(r.width)}×${Math.round(r.height)} touch target`);
      }
    }
  }
  return [...new Set(problems)];
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_fits_its_size(browser, catalog, artifacts, size):
    viewport, touch = SIZES[size]
    context, page = open_app(browser, catalog["url"], (size, viewport, touch), "/discover")
    found = {}
    try:
        for route in ROUTES:
            page.goto(route)
            page.wait_for_selector(".screen, [data-item-id][aria-current='true']", timeout=15_000)
            page.wait_for_timeout(600)
            problems = page.evaluate(AUDIT, "targets" if touch and os.environ.get("REELHOUSE_AUDIT_TOUCH_TARGETS") else "layout")
            folder = artifacts / "layout"
            folder.mkdir(exist_ok=True)
            page.screenshot(path=str(folder / f"{size}{route.replace('/', '_').replace('?', '-')}.png"))
            if problems:
                found[route] = problems
    finally:
        context.close()
    assert not found, "\n".join(f"{route}: {problem}" for route, problems in found.items() for problem in problems)
