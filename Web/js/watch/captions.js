// The captions choice of the full player, built from `video.textTracks` (subtitle renditions
// the engine or the browser adds there): hidden while the post has none, "Off" plus one entry
// per language otherwise. The chosen language is remembered for the next video.

const CAPTIONS_KEY = 'reelhouse.captions';

const isCaption = (track) => track.kind === 'subtitles' || track.kind === 'captions';

function remembered() {
  try { return localStorage.getItem(CAPTIONS_KEY) || ''; } catch { return ''; }
}

function remember(language) {
  try { localStorage.setItem(CAPTIONS_KEY, language); } catch { /* this visit only */ }
}

/** `select` is filled and shown/hidden here; returns `{ destroy() }`. */
export function wireCaptions(video, select) {
  const tracks = () => Array.from(video.textTracks ?? []).filter(isCaption);

  function apply(language) {
    for (const track of tracks()) track.mode = language && (track.language || track.label) === language ? 'showing' : 'disabled';
  }

  function render() {
    const list = tracks();
    select.hidden = list.length === 0;
    const wanted = remembered();
    const options = [new Option('Captions off', '')].concat(list.map((track) => {
      const key = track.language || track.label;
      return new Option(track.label || track.language || 'Captions', key);
    }));
    select.replaceChildren(...options);
    const showing = list.find((track) => track.mode === 'showing');
    const choice = showing ? (showing.language || showing.label) : (list.some((track) => (track.language || track.label) === wanted) ? wanted : '');
    select.value = choice;
    apply(choice);
  }

  const onChange = () => { remember(select.value); apply(select.value); };
  select.addEventListener('change', onChange);
  video.textTracks?.addEventListener?.('addtrack', render);
  video.textTracks?.addEventListener?.('removetrack', render);
  render();
  return {
    destroy() {
      select.removeEventListener('change', onChange);
      video.textTracks?.removeEventListener?.('addtrack', render);
      video.textTracks?.removeEventListener?.('removetrack', render);
      for (const track of tracks()) track.mode = 'disabled';
    },
  };
}
