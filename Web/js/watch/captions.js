// The captions choice of the full player: "Captions off" plus each subtitle language the post
// has (`item.captions`, from GET /api/v1/videos/{id}); hidden when it has none. Cues come from
// the engine's CaptionTrack (player/captions.js: it takes over the caption track the element
// already has, one for the element's life) and are drawn in `line`. The choice is the feed's
// too (ui/preferences.js), so a language picked in one shows in the other.
import { CaptionTrack } from '../player/captions.js';
import { rememberedCaptions, rememberCaptions, captionFor, inPreferredOrder } from '../ui/preferences.js';

/** Fills `select` with the post's languages and shows the chosen one; returns `{ destroy() }`. */
export function wireCaptions(video, select, line, item) {
  const captions = inPreferredOrder(item.captions ?? []);
  const draw = (lines) => { line.textContent = lines.join('\n'); line.hidden = lines.length === 0; };
  const track = new CaptionTrack(video, { onCues: draw });
  select.hidden = captions.length === 0;
  const key = (caption) => `${caption.language}|${caption.name}`;
  select.replaceChildren(new Option('Captions off', ''), ...captions.map((caption) => new Option(caption.name || caption.language, key(caption))));

  function show(caption) {
    if (caption && item.media?.master) track.show(item.media.master, caption);
    else track.hide();
  }

  const initial = captionFor(item, rememberedCaptions());
  select.value = initial ? key(initial) : '';
  show(initial);

  const onChange = () => {
    const caption = captions.find((candidate) => key(candidate) === select.value) ?? null;
    rememberCaptions(caption ? { language: caption.language, name: caption.name } : { language: '', name: '' });
    show(caption);
  };
  select.addEventListener('change', onChange);
  return {
    destroy() {
      select.removeEventListener('change', onChange);
      track.hide();
    },
  };
}
