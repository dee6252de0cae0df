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

/** Loads a stylesheet once (the screens bring their own; index.html stays the shell's). */
export function useStylesheet(href) {
  if (document.querySelector(`link[data-sheet="${href}"]`)) return;
  document.head.append(h('link', { rel: 'stylesheet', href, 'data-sheet': href }));
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
