// Tiny DOM builders for every screen (detail sheet, full player, stories, Profile, the feed's
// menus): text goes in as text, never as HTML.

/** `h('button', { class: 'x', onclick }, 'Label', child…)`. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'class') element.className = value;
    else if (key === 'innerHTML') element.innerHTML = value;   // only our own icon markup
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key in element && typeof value !== 'string') element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const sheetsLoaded = new Map();

/** Adds a feature's stylesheet once (the screens bring their own; index.html stays the
 * shell's). Resolves when it has loaded, or failed to (unstyled beats never shown): a
 * feature drawn before its sheet arrives flashes bare markup, so one that can wait (the
 * stories tray) waits for this. */
export function useStylesheet(href) {
  if (!sheetsLoaded.has(href)) {
    const link = h('link', { rel: 'stylesheet', href, 'data-sheet': href });
    sheetsLoaded.set(href, new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    }));
    document.head.append(link);
  }
  return sheetsLoaded.get(href);
}

/** Keeps a dialog drawn before its sheet (`useStylesheet`'s promise) transparent until the
 * sheet has loaded: it opens, takes focus and lays out at once, but never shows bare markup.
 * A sheet already loaded clears it in a microtask, before anything is painted. */
export function revealWhenStyled(element, styled) {
  element.style.opacity = '0';
  styled.then(() => element.style.removeProperty('opacity'));
}

/** Copies text: the Clipboard API, else a selected textarea and execCommand (older Safari, http). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { readonly: true, class: 'copy-fallback' });
    area.value = text;
    (document.querySelector('dialog[open]') ?? document.body).append(area);
    area.select();
    let copied = false;
    try { copied = document.execCommand('copy'); } catch { copied = false; }
    area.remove();
    return copied;
  }
}
