"""The layout audit's check (issue 29), shared by Tests/web/test_layout_audit.py: run in the page,
it lists what a person would see wrong at this size — the page or a screen scrolling sideways,
a control outside the viewport, a button's or pill's text cut or wrapped, the tab bar or rail
reaching past the viewport's edge, and (on touch screens) a control smaller than 44×44 CSS px.
With a modal dialog open (the detail sheet, the stories player) only the dialog is audited:
the page behind it is inert. Each audited state is also saved as a screenshot under
artifacts/layout/."""
from pathlib import Path

SIZES = {
    "phone": ({"width": 390, "height": 844}, True),
    "tablet": ({"width": 768, "height": 1024}, True),
    "desktop": ({"width": 1440, "height": 900}, False),
}
CONTROLS = 'button, a.button, a.header-link, a.nav-tab, .pill, .chip, [role="button"], summary, select, input'

AUDIT = """([targets, controls]) => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const root = document.querySelector('dialog:modal') || document;
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
  for (const screen of root.querySelectorAll('#screens, .screen, .create-view, dialog[open], .detail-body, .watch-controls')) {
    if (shown(screen) && screen.scrollWidth > screen.clientWidth + 1 && getComputedStyle(screen).overflowX !== 'hidden') problems.push(`${name(screen)} scrolls sideways`);
  }
  if (root === document) {
    // The tab bar (phones) and the rail (wider): fixed to the viewport's edge, not a pixel past it.
    for (const el of document.querySelectorAll('#app-nav, #app-nav *')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > innerHeight + 0.5) {
        problems.push(`${name(el)} reaches outside the viewport (${Math.round(r.left)},${Math.round(r.top)}…${r.right},${r.bottom} of ${width}×${innerHeight})`);
      }
    }
  }
  for (const el of root.querySelectorAll(controls)) {
    if (!shown(el) || scrollsSideways(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 || r.left < -1) problems.push(`${name(el)} is outside the viewport (${Math.round(r.left)}…${Math.round(r.right)} of ${width})`);
    // Its text, line box by line box (an icon or an invisible hit area is not text).
    const range = document.createRange();
    const boxes = [];
    for (const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); walker.nextNode();) {
      const holder = walker.currentNode.parentElement, box = holder.getBoundingClientRect();
      if (getComputedStyle(holder).textOverflow === 'ellipsis') continue;   // ends in "…" where it must
      if (box.width <= 1 || box.height <= 1) continue;                       // for screen readers only (.visually-hidden)
      range.selectNodeContents(walker.currentNode);
      boxes.push(...[...range.getClientRects()].filter((q) => q.width > 1));
    }
    if (el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && boxes.some((q) => q.right > r.right + 2 || q.left < r.left - 2)) {
      problems.push(`${name(el)} cuts its text (${Math.round(Math.max(...boxes.map((q) => q.right)) - Math.min(...boxes.map((q) => q.left)))} in ${Math.round(r.width)})`);
    }
    const text = (el.innerText || '').trim();
    if (text && text.length <= 24 && !text.includes('\\n') && new Set(boxes.map((q) => Math.round(q.bottom / 6))).size > 1) {
      problems.push(`${name(el)} wraps its label`);
    }
    const small = r.width < 43.5 || r.height < 43.5;
    if (targets && small && el.tagName !== 'INPUT') {
      // The target may be larger than what is drawn (padding, ::before): ask the points 21 px off its centre.
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const hits = [[cx - 21, cy], [cx + 21, cy], [cx, cy - 21], [cx, cy + 21]].map(([x, y]) => document.elementFromPoint(x, y));
      const mine = (hit) => hit && (hit === el || el.contains(hit));
      if (!hits.every(mine)) problems.push(`${name(el)} is a ${Math.round(r.width)}×${Math.round(r.height)} touch target`);
    }
  }
  return [...new Set(problems)];
}"""


def audit(page, size: str, artifacts: Path, state: str) -> list[str]:
    """What is wrong with `page` as it stands at `size` (SIZES); saves artifacts/layout/SIZE_STATE.png."""
    _, touch = SIZES[size]
    problems = page.evaluate(AUDIT, [touch, CONTROLS])
    folder = artifacts / "layout"
    folder.mkdir(exist_ok=True)
    page.screenshot(path=str(folder / f"{size}_{state}.png"))
    return [f"{state}: {problem}" for problem in problems]
