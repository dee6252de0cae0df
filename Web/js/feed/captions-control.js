// The feed's captions: a CC button on every video that has subtitles steps through Off and
// each of its languages; the choice is remembered (localStorage) and applies to every post
// that has that language. Only the video on screen shows captions, drawn in its stage as
// plain text above the overlay.
import { CaptionTrack } from '../player/captions.js';
import { rememberedCaptions, rememberCaptions, captionFor, inPreferredOrder } from '../ui/preferences.js';

export function createCaptionsControl({ pool, entryFor }) {
  let choice = rememberedCaptions();
  let currentKey = null;
  const tracks = new Map(); // <video> → CaptionTrack, one per pooled element

  function trackFor(video) {
    if (!tracks.has(video)) {
      tracks.set(video, new CaptionTrack(video, { onCues: (lines) => draw(video, lines) }));
    }
    return tracks.get(video);
  }

  const boxes = new Map(); // <video> → the caption box it last drew into

  function draw(video, lines) {
    const box = video.closest('.stage')?.querySelector('.captions-line') ?? null;
    const previous = boxes.get(video);
    if (previous && previous !== box) { previous.textContent = ''; previous.hidden = true; }
    boxes.set(video, box);
    if (!box) return;
    box.textContent = lines.join('\n');
    box.hidden = lines.length === 0;
  }

  function render(element, item) {
    const button = element?.querySelector('[data-action="captions"]');
    if (!button) return;
    const shown = captionFor(item, choice);
    button.setAttribute('aria-pressed', String(Boolean(shown)));
    button.setAttribute('aria-label', shown ? `Captions: ${shown.name}` : 'Captions off');
    button.title = shown ? `Captions: ${shown.name}` : 'Captions off';
    button.querySelector('.cc-language').textContent = shown ? shown.language.split('-')[0].toUpperCase() : '';
  }

  /** Shows the chosen language on the current video, nothing on the others. */
  function apply() {
    for (const slot of pool.slots) {
      const track = trackFor(slot.video);
      const entry = slot.key === null ? null : entryFor(slot.key);
      const caption = slot.key === currentKey && slot.ready ? captionFor(entry?.item, choice) : null;
      const wanted = caption && entry.item.media?.master ? `${entry.item.media.master}|${caption.name}` : null;
      if (wanted === track.showing) continue;
      track.showing = wanted;
      if (wanted) track.show(entry.item.media.master, caption);
      else track.hide();
    }
    const entry = currentKey === null ? null : entryFor(currentKey);
    if (entry) render(entry.element, entry.item);
  }

  return {
    setCurrent(key) { currentKey = key; apply(); },
    /** A pooled player became ready or was released. */
    update: apply,
    /** The CC button: Off → each language of this post → Off. */
    cycle(element, item) {
      const options = [null, ...inPreferredOrder(item.captions ?? [])];
      const shown = captionFor(item, choice);
      const at = shown ? options.indexOf(shown) : 0;
      const next = options[(at + 1) % options.length];
      choice = next ? { language: next.language, name: next.name } : null;
      rememberCaptions(choice ?? { language: '', name: '' });
      render(element, item);
      apply();
    },
    render,
  };
}
