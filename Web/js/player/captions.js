// Captions for one <video>: the chosen subtitle rendition's WebVTT segments, fetched a few
// seconds ahead of the playhead, become cues of ONE text track the element keeps for its whole
// life (a pooled element is reused for many posts; text tracks cannot be removed). The track
// stays `hidden`: the browser tracks which cues are active, and `onCues` draws them where the
// page wants (the feed puts them above its overlay). Safari's native HLS brings the master's
// renditions as its own text tracks; those are used instead of fetching.
import { absolute, parseMedia } from './playlist.js';
import { parseSubtitleRenditions, parseWebVTT } from './webvtt.js';

const AHEAD_SECONDS = 10;
const text = (response) => {
  if (!response.ok) throw new Error(`captions: HTTP ${response.status}`);
  return response.text();
};

export class CaptionTrack {
  constructor(video, { onCues = () => {}, fetchText = (url, signal) => fetch(url, { signal }).then(text) } = {}) {
    this.video = video;
    this.onCues = onCues;
    this.fetchText = fetchText;
    this.track = null;
    this.session = null;
  }

  /** The subtitle renditions of a master playlist (name, language, uri). */
  async renditions(masterUrl, signal) {
    const url = absolute(masterUrl);
    return parseSubtitleRenditions(await this.fetchText(url, signal), url);
  }

  /**
   * Shows `choice` ({ language, name }) for the post whose master is `masterUrl`: the rendition
   * with that name, else the first with that language. Resolves false when it has none.
   */
  async show(masterUrl, choice) {
    this.hide();
    const session = { controller: new AbortController(), segments: [], loaded: new Set(), seen: new Set(), busy: false, listeners: [] };
    this.session = session;
    const { signal } = session.controller;
    try {
      const native = this.nativeTrack(choice);
      if (native) return this.follow(session, native);
      const all = await this.renditions(masterUrl, signal);
      const rendition = all.find((r) => r.name === choice.name) ?? all.find((r) => r.language === choice.language);
      if (!rendition || session !== this.session) return false;
      session.segments = parseMedia(await this.fetchText(rendition.uri, signal), rendition.uri).segments;
      if (session !== this.session) return false;
      const track = this.ownTrack();
      this.follow(session, track);
      const fill = () => this.fill(session, track);
      for (const name of ['timeupdate', 'seeking']) this.listen(session, this.video, name, fill);
      await this.fill(session, track);
      return true;
    } catch (error) {
      if (session === this.session && error?.name !== 'AbortError') this.hide();
      return false;
    }
  }

  /** Stops fetching and showing; the cues of the last post are dropped. */
  hide() {
    const session = this.session;
    this.session = null;
    if (!session) return;
    session.controller.abort();
    for (const remove of session.listeners) remove();
    if (this.track) clearCues(this.track);
    if (session.track) session.track.mode = 'disabled';
    this.onCues([]);
  }

  /**
   * The element's one caption track. Text tracks cannot be removed, and the pooled elements
   * outlive every feed, story and full player that draws into them: the track made by an
   * earlier CaptionTrack on this element is taken over, never a second one added.
   */
  ownTrack() {
    this.track ??= [...this.video.textTracks].find((track) => track.kind === 'subtitles' && track.label === 'Captions' && !track.language)
      ?? this.video.addTextTrack('subtitles', 'Captions');
    return this.track;
  }

  nativeTrack(choice) {
    const tracks = [...this.video.textTracks].filter((track) => track !== this.track && track.kind === 'subtitles');
    return tracks.find((track) => track.label === choice.name) ?? tracks.find((track) => track.language === choice.language) ?? null;
  }

  /** Reports the active cues' text whenever they change. */
  follow(session, track) {
    session.track = track;
    track.mode = 'hidden';
    const report = () => {
      if (session !== this.session) return;
      this.onCues([...(track.activeCues ?? [])].map((cue) => cueText(cue)));
    };
    this.listen(session, track, 'cuechange', report);
    report();
    return true;
  }

  /** Fetches the segments from the playhead to a few seconds ahead, one at a time. */
  async fill(session, track) {
    if (session.busy || session !== this.session) return;
    session.busy = true;
    try {
      const from = this.video.currentTime - 1;
      for (const [index, segment] of session.segments.entries()) {
        if (segment.start + segment.duration < from || segment.start > from + AHEAD_SECONDS) continue;
        if (session.loaded.has(index)) continue;
        const { cues } = parseWebVTT(await this.fetchText(segment.uri, session.controller.signal));
        if (session !== this.session) return;
        session.loaded.add(index);
        for (const cue of cues) {
          // A cue spanning a boundary is in both segments: add it once.
          const key = `${cue.start}|${cue.end}|${cue.text}`;
          if (session.seen.has(key)) continue;
          session.seen.add(key);
          track.addCue(new VTTCue(cue.start, cue.end, cue.text));
        }
      }
    } catch (error) {
      if (error?.name !== 'AbortError') console.warn('captions:', error?.message ?? error);
    } finally {
      session.busy = false;
    }
  }

  listen(session, target, name, handler) {
    target.addEventListener(name, handler);
    session.listeners.push(() => target.removeEventListener(name, handler));
  }
}

/** Removes every cue; a disabled track lists none (`cues` is null), so it is enabled first. */
function clearCues(track) {
  if (track.mode === 'disabled') track.mode = 'hidden';
  for (const cue of [...(track.cues ?? [])]) track.removeCue(cue);
}

/** A cue's words without markup (`<i>`, `<c.x>`, inline timestamps), never parsed as HTML here. */
function cueText(cue) {
  if (typeof cue.getCueAsHTML === 'function') return cue.getCueAsHTML().textContent;
  return String(cue.text ?? '').replace(/<[^>]*>/g, '');
}
