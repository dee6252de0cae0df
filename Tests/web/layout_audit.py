"""The layout audit's check (issue 29), shared by Tests/web/test_layout_audit.py: run in the page,
it lists what a person would see wrong at this size. The rules (each finding names its rule):

  sideways   the page or a screen scrolls sideways;
  viewport   a control (every interactive element, see INTERACTIVE) reaches outside the
             viewport, or the tab bar / rail reaches past the viewport's edge;
  cut        a control is cut by a container that does not scroll (overflow: hidden);
  text       a button's or pill's text is cut, or its short label wraps;
  target     (touch sizes) a control's hit area is under 44×44 CSS px — WCAG 2.2's exceptions
             apply: a link inside a sentence, and a small target with no other target within
             22 px of its centre;
  overlap    two controls' boxes intersect (neither inside the other);
  covered    the topmost element at a control's centre is something else: a tap there misses it;
  on-video   in the feed, something from outside the playing item lies on its picture.

"Visible" is what a person can reach on screen now without scrolling the page sideways: not
display:none / visibility:hidden / opacity 0 / zero-sized, not under [hidden], [inert] or
aria-hidden, not scrolled away inside a scroll container, and at least partly inside the
viewport's height (what lies below the fold is audited where the test scrolls to it). With a
modal dialog open (the detail sheet, the stories player) only the dialog is audited: the page
behind it is inert. Each audited state is also saved as a screenshot under artifacts/layout/."""
from pathlib import Path

SIZES = {
    "phone": ({"width": 390, "height": 844}, True),
    "tablet": ({"width": 768, "height": 1024}, True),
    "desktop": ({"width": 1440, "height": 900}, False),
}
# What a finger or a pointer acts on. A label counts where it wraps a control (tapping it acts
# on the control); [tabindex] only where it puts the element in the tab order.
INTERACTIVE = ('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], summary, '
               '[tabindex]:not([tabindex^="-"]), label:has(input:not([type="hidden"]), select, textarea)')
# Whose text must fit on one line in its box: buttons and the button-like pills and chips.
TEXT_CONTROLS = 'button, a.button, a.header-link, a.nav-tab, .pill, .chip, [role="button"], summary'

AUDIT = r"""([touch, interactive, textControls]) => {
  const problems = [];
  const add = (rule, el, detail) => problems.push({ rule, el: el ? name(el) : '', detail });
  const width = document.documentElement.clientWidth, height = innerHeight;
  const root = document.querySelector('dialog:modal') || document;
  function name(el) {
    const tag = el.tagName.toLowerCase();
    const id = el.id ? `#${el.id}` : '';
    const classes = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    const type = tag === 'input' ? `[type=${el.type}]` : '';
    const text = (el.getAttribute('aria-label') || el.innerText || el.getAttribute('title') || el.getAttribute('placeholder') || '').trim().replace(/\s+/g, ' ');
    return `${tag}${id}${classes}${type}${text ? ` "${text.slice(0, 30)}${text.length > 30 ? '…' : ''}"` : ''}`;
  }
  const px = (n) => Math.round(n);
  const span = (r) => `${px(r.left)},${px(r.top)}…${px(r.right)},${px(r.bottom)}`;
  const scrollable = (s, axis) => ['auto', 'scroll'].includes(axis === 'x' ? s.overflowX : s.overflowY);

  // Drawn at all: not hidden by the cascade, an ancestor's attribute, opacity or zero size.
  const drawn = (el) => !el.closest('[hidden], [aria-hidden="true"], [inert]')
    && el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });

  // The part of `el` its clipping ancestors let show (scroll containers included), up to its
  // fixed ancestor, if it has one (what is fixed is not clipped by what lies outside it).
  function visible(el) {
    const box = el.getBoundingClientRect();
    const v = { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    let fixed = getComputedStyle(el).position === 'fixed', scroller = null, cutter = null, cut = v;
    for (let up = el.parentElement; up && !fixed && up !== document.documentElement && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const r = up.getBoundingClientRect();
        const inner = { left: r.left + up.clientLeft, top: r.top + up.clientTop };
        inner.right = inner.left + (up.clientWidth || r.width);
        inner.bottom = inner.top + (up.clientHeight || r.height);
        const before = { ...v };
        if (s.overflowX !== 'visible') { v.left = Math.max(v.left, inner.left); v.right = Math.min(v.right, inner.right); }
        if (s.overflowY !== 'visible') { v.top = Math.max(v.top, inner.top); v.bottom = Math.min(v.bottom, inner.bottom); }
        const scrolls = (scrollable(s, 'x') && up.scrollWidth > up.clientWidth + 1) || (scrollable(s, 'y') && up.scrollHeight > up.clientHeight + 1);
        if (scrolls) scroller = scroller || up;
        else if (!cutter && ['left', 'top', 'right', 'bottom'].some((k) => Math.abs(before[k] - v[k]) > 2)) { cutter = up; cut = before; }
      }
      if (s.position === 'fixed') fixed = true;
    }
    v.width = v.right - v.left; v.height = v.bottom - v.top;
    return { box, v, fixed, scroller, cutter };
  }

  // ---- sideways scroll
  if (document.scrollingElement.scrollWidth > width + 1) add('sideways', null, `the page scrolls sideways: ${document.scrollingElement.scrollWidth} px in ${width}`);
  for (const screen of root.querySelectorAll('#screens, .screen, .create-view, dialog[open], .detail-body, .watch-controls')) {
    if (drawn(screen) && screen.scrollWidth > screen.clientWidth + 1 && getComputedStyle(screen).overflowX !== 'hidden') add('sideways', screen, `scrolls sideways (${screen.scrollWidth} px in ${screen.clientWidth})`);
  }
  if (root === document) {
    // The tab bar (phones) and the rail (wider): fixed to the viewport's edge, not a pixel past it.
    for (const el of document.querySelectorAll('#app-nav, #app-nav *')) {
      if (!drawn(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width && r.height && (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5)) {
        add('viewport', el, `reaches outside the viewport (${span(r)} of ${width}×${height})`);
      }
    }
  }

  // ---- every control on screen
  const controls = [];
  for (const el of root.querySelectorAll(interactive)) {
    if (!drawn(el)) continue;
    const where = visible(el);
    const { box, v } = where;
    if (box.width < 1 || box.height < 1) continue;                  // zero-sized (a .visually-hidden input)
    if (v.width < 1 || v.height < 1) continue;                      // scrolled away or clipped out of sight
    if (v.bottom <= 0 || v.top >= height) continue;                 // below (or above) the fold
    controls.push({ el, ...where });
    if (v.left < -1 || v.right > width + 1) add('viewport', el, `is outside the viewport (${px(v.left)}…${px(v.right)} of ${width})`);
    else if (where.fixed && !where.scroller && (v.top < -1 || v.bottom > height + 1)) add('viewport', el, `is outside the viewport (${px(v.top)}…${px(v.bottom)} of ${height})`);
    if (where.cutter && !where.scroller) add('cut', el, `is cut by ${name(where.cutter)} (shows ${span(v)} of ${span(box)})`);
  }
  // A panel the person opened from a button (aria-expanded="true" with aria-controls: the feed's
  // ⋯ panel) or a popover lies over what is under it by design, and a tap outside closes it:
  // what it covers is not a finding; what lies on top of it would be.
  const popups = [...root.querySelectorAll('[aria-expanded="true"][aria-controls]')]
    .map((opener) => document.getElementById(opener.getAttribute('aria-controls')))
    .concat([...root.querySelectorAll(':popover-open')])
    .filter((popup) => popup && drawn(popup) && ['absolute', 'fixed'].includes(getComputedStyle(popup).position));
  const popupOf = (el) => popups.find((popup) => popup.contains(el));
  const mine = (el, hit) => !!hit && (hit === el || el.contains(hit) || [...(el.labels || [])].some((label) => label.contains(hit)));
  const related = (a, b) => a.contains(b) || b.contains(a);
  const apart = (a, b) => a.right <= b.left + 1 || b.right <= a.left + 1 || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;

  // ---- text: cut or wrapped in a button or pill
  for (const el of root.querySelectorAll(textControls)) {
    if (!drawn(el)) continue;
    const { box: r, v } = visible(el);
    if (r.width < 1 || r.height < 1 || v.width < 1 || v.height < 1 || v.bottom <= 0 || v.top >= height) continue;
    // Its text, line box by line box (an icon or an invisible hit area is not text).
    const range = document.createRange();
    const boxes = [];
    for (const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); walker.nextNode();) {
      const holder = walker.currentNode.parentElement, hb = holder.getBoundingClientRect();
      if (getComputedStyle(holder).textOverflow === 'ellipsis') continue;   // ends in "…" where it must
      if (hb.width <= 1 || hb.height <= 1) continue;                         // for screen readers only (.visually-hidden)
      range.selectNodeContents(walker.currentNode);
      boxes.push(...[...range.getClientRects()].filter((q) => q.width > 1));
    }
    if (boxes.some((q) => q.right > r.right + 2 || q.left < r.left - 2)) {
      add('text', el, `cuts its text (${px(Math.max(...boxes.map((q) => q.right)) - Math.min(...boxes.map((q) => q.left)))} px in ${px(r.width)})`);
    }
    const text = (el.innerText || '').trim();
    if (text && text.length <= 24 && !text.includes('\n') && new Set(boxes.map((q) => Math.round(q.bottom / 6))).size > 1) add('text', el, 'wraps its label');
  }

  // ---- touch targets: at least 44×44 on the touch sizes
  if (touch) {
    for (const { el, box: r, v } of controls) {
      // A control inside a label: the label is the target (a tap on it acts on the control), audited itself.
      if (el.matches('input, select, textarea') && el.closest('label') && controls.some((c) => c.el === el.closest('label'))) continue;
      // Partly scrolled away: its target is judged where it can be seen whole.
      if (Math.abs(v.width - r.width) > 1 || Math.abs(v.height - r.height) > 1) continue;
      if (r.width >= 43.5 && r.height >= 43.5) continue;
      // WCAG 2.2 (2.5.8): a link inside a sentence is as tall as the sentence's line.
      if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') {
        let block = el.parentElement;
        while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
        if (block && block.textContent.replace(el.textContent, '').trim()) continue;
      }
      // The target may be larger than what is drawn (padding, a transparent border, ::after):
      // ask the points 21 px off its centre (within the screen: a target at its edge ends there).
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const clampX = (x) => Math.min(Math.max(x, 0.5), width - 0.5), clampY = (y) => Math.min(Math.max(y, 0.5), height - 0.5);
      const hits = [[cx - 21, cy], [cx + 21, cy], [cx, cy - 21], [cx, cy + 21]].map(([x, y]) => document.elementFromPoint(clampX(x), clampY(y)));
      if (hits.every((hit) => mine(el, hit))) continue;
      // WCAG 2.2's spacing exception, at 44 px: no other target within 22 px of its centre.
      const near = controls.filter((c) => !related(c.el, el) && ![...(el.labels || [])].includes(c.el)).map((c) => {
        const dx = Math.max(c.v.left - cx, 0, cx - c.v.right), dy = Math.max(c.v.top - cy, 0, cy - c.v.bottom);
        return { c, d: Math.hypot(dx, dy) };
      }).filter(({ d }) => d < 22).sort((a, b) => a.d - b.d);
      if (!near.length) continue;
      add('target', el, `is a ${px(r.width)}×${px(r.height)} touch target with ${name(near[0].c.el)} ${px(near[0].d)} px from its centre`);
    }
  }

  // ---- overlap: two controls' boxes intersecting, neither inside the other
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i], b = controls[j];
      if (related(a.el, b.el) || apart(a.v, b.v)) continue;
      if ([...(a.el.labels || [])].includes(b.el) || [...(b.el.labels || [])].includes(a.el)) continue;   // a label[for] and its control
      if (popupOf(a.el) !== popupOf(b.el)) continue;                                                      // an open panel over the rest
      const w = Math.min(a.v.right, b.v.right) - Math.max(a.v.left, b.v.left), h = Math.min(a.v.bottom, b.v.bottom) - Math.max(a.v.top, b.v.top);
      add('overlap', a.el, `overlaps ${name(b.el)} (${px(w)}×${px(h)} px)`);
    }
  }

  // ---- covered: the topmost element at a control's centre is someone else's
  for (const { el, v, scroller } of controls) {
    if (getComputedStyle(el).pointerEvents === 'none') continue;     // takes no taps by design
    const cx = v.left + v.width / 2, cy = v.top + v.height / 2;
    if (cx < 0 || cy < 0 || cx >= width || cy >= height) continue;
    const hit = document.elementFromPoint(cx, cy);
    if (!hit || mine(el, hit)) continue;
    if (popupOf(hit) && !popupOf(hit).contains(el)) continue;       // under an open panel
    // Under a bar fixed to the screen's edge, in a list that can still scroll it out from under the bar.
    const bar = [...(function* () { for (let up = hit; up; up = up.parentElement) yield up; })()]
      .find((up) => !up.contains(el) && ['fixed', 'sticky'].includes(getComputedStyle(up).position));
    const list = scroller || (document.scrollingElement.scrollHeight > height + 1 ? document.scrollingElement : null);
    if (bar && list) {
      const b = bar.getBoundingClientRect();
      const room = cy > b.top + b.height / 2 ? list.scrollTop : list.scrollHeight - list.clientHeight - list.scrollTop;
      const needed = cy > b.top + b.height / 2 ? b.bottom - v.top : v.bottom - b.top;
      if (room >= needed - 1) continue;
    }
    const over = hit.closest(interactive) || hit;
    add('covered', el, `is covered at its centre (${px(cx)},${px(cy)}) by ${name(over)}`);
  }

  // ---- on-video: in the feed, only the playing item (and the bars over it) on its picture
  const current = root === document && document.querySelector('#feed-view:not([hidden]) [data-item-id][aria-current="true"]');
  const stage = current && current.querySelector('.stage');
  if (stage) {
    const s = stage.getBoundingClientRect();
    const seen = new Set();
    for (let i = 1; i < 12; i++) {
      for (let j = 1; j < 12; j++) {
        const x = s.left + (s.width * i) / 12, y = s.top + (s.height * j) / 12;
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const hit = document.elementFromPoint(x, y);
        // The top bar, the stories tray under it and the tab bar lie on the picture by design.
        if (!hit || current.contains(hit) || hit.closest('.topbar, .feed-stories, #app-nav')) continue;
        const what = hit.closest('[data-item-id]') || hit;
        if (seen.has(what)) continue;
        seen.add(what);
        add('on-video', what, `lies on the playing item's picture at (${px(x)},${px(y)})`);
      }
    }
  }
  return problems;
}"""


def audit(page, size: str, artifacts: Path, state: str) -> list[str]:
    """What is wrong with `page` as it stands at `size` (SIZES), one line a finding:
    "SIZE W×H STATE [RULE] ELEMENT: WHAT"; saves artifacts/layout/SIZE_STATE.png."""
    viewport, touch = SIZES[size]
    problems = page.evaluate(AUDIT, [touch, INTERACTIVE, TEXT_CONTROLS])
    folder = artifacts / "layout"
    folder.mkdir(exist_ok=True)
    page.screenshot(path=str(folder / f"{size}_{state}.png"))
    where = f"{size} {viewport['width']}×{viewport['height']} {state}"
    lines = [f"{where} [{p['rule']}] {p['el']}: {p['detail']}" if p["el"] else f"{where} [{p['rule']}] {p['detail']}" for p in problems]
    return list(dict.fromkeys(lines))
