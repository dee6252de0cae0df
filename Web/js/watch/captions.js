// The captions choice of the full player: "Captions off" plus each subtitle language the post
// has (`item.captions`, from GET /api/v1/videos/{id}); hidden when it has none. Cues come from
// the engine's CaptionTrack (player/captions.js) and are drawn in `line`. The choice is the
// feed's too (feed/captions-control.js: same remembered value), so a language picked in one
// shows in the other.
import { CaptionTrack } from '../player/captions.js';
import { rememberedCaptions, captionFor } from '../feed/captions-control.js';

const KEY = 'reelhouse.captions';

/**
 * A pooled element keeps one caption text track for its life (text tracks cannot be removed):
 * reuse the one the feed's CaptionTrack made on this element, if any, instead of a second.
 */
class SharedCaptionTrack extends CaptionTrack {
  ownTrack() {
    this.track ??= [...this.video.textTracks].find((track) => track.kind === 'subtitles' && track.label === 'Captions' && !track.language)
      ?? super.ownTrack();
    return this.track;
  }
}

/** Fills `select` with the post's languages and shows the chosen one; returns `{ destroy() }`. */
export function wireCaptions(video, select, line, item) {
  const captions = item.captions ?? [];
  const draw = (lines) => { line.textContent = lines.join('\n'); line.hidden = lines.length === 0; };
  const track = new SharedCaptionTrack(video, { onCues: draw });
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
    try { localStorage.setItem(KEY, JSON.stringify(caption ? { language: caption.language, name: caption.name } : { language: '', name: '' })); } catch { /* this visit only */ }
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
