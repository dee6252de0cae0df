// WebVTT for captions: the subtitle renditions of a master playlist and the cues of one
// segmented WebVTT file (RFC 8216 §3.5). Pure functions: text in, plain objects out.
import { parseAttributes } from './playlist.js';

/** `#EXT-X-MEDIA:TYPE=SUBTITLES` entries of a master playlist, URIs made absolute. */
export function parseSubtitleRenditions(text, baseUrl) {
  const renditions = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('#EXT-X-MEDIA:')) continue;
    const attributes = parseAttributes(line.slice('#EXT-X-MEDIA:'.length));
    if (attributes.TYPE !== 'SUBTITLES' || !attributes.URI || !attributes.NAME) continue;
    renditions.push({
      name: attributes.NAME,
      language: attributes.LANGUAGE ?? '',
      uri: new URL(attributes.URI, baseUrl).href,
      isDefault: attributes.DEFAULT === 'YES',
    });
  }
  return renditions;
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds, NaN when malformed. */
export function parseTimestamp(text) {
  const match = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(text.trim());
  if (!match) return NaN;
  const [, hours = '0', minutes, seconds, millis] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(millis) / 1000;
}

/**
 * Cues of one WebVTT segment on the video's timeline: a cue's local time minus the map's
 * LOCAL plus its MPEGTS (90 kHz) is the media time the video element plays at. Without a map
 * the local times are the media times. Cue settings are left out (the feed places captions
 * itself); the text keeps its markup for VTTCue.
 */
export function parseWebVTT(text) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) throw new Error('not a WebVTT file');
  let offset = 0;
  const cues = [];
  let index = 1;
  for (; index < lines.length && lines[index].trim() !== ''; index += 1) {
    const map = /^X-TIMESTAMP-MAP=(.*)$/.exec(lines[index]);
    if (!map) continue;
    const fields = Object.fromEntries(map[1].split(',').map((pair) => pair.split(/:(.*)/s).slice(0, 2)));
    const mpegts = Number(fields.MPEGTS ?? 0);
    const local = parseTimestamp(fields.LOCAL ?? '00:00.000');
    if (Number.isFinite(mpegts) && Number.isFinite(local)) offset = mpegts / 90000 - local;
  }
  while (index < lines.length) {
    while (index < lines.length && lines[index].trim() === '') index += 1;
    const block = [];
    while (index < lines.length && lines[index].trim() !== '') { block.push(lines[index]); index += 1; }
    if (block.length === 0) break;
    const timingAt = block.findIndex((line) => line.includes('-->'));
    if (timingAt < 0 || timingAt > 1) continue; // NOTE, STYLE, REGION
    const [startText, rest = ''] = block[timingAt].split('-->');
    const start = parseTimestamp(startText);
    const end = parseTimestamp(rest.trim().split(/[ \t]/)[0] ?? '');
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    cues.push({ start: start + offset, end: end + offset, text: block.slice(timingAt + 1).join('\n') });
  }
  return { offset, cues };
}
