// Unit tests of captions: the master's subtitle renditions, WebVTT segments with their
// timestamp map, a CaptionTrack over a real <video> fed by a stand-in fetch, and the feed's
// choice of language. Results land in window.__results for pytest (test_engine_unit.py).
import { parseSubtitleRenditions, parseTimestamp, parseWebVTT } from '../../../Web/js/player/webvtt.js';
import { CaptionTrack } from '../../../Web/js/player/captions.js';
import { captionFor, rememberedCaptions } from '../../../Web/js/ui/preferences.js';
import { test, assert, equal, run } from './harness.js';

const base = 'http://127.0.0.1:8080/media/TOKEN/5/';
const MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subtitles/en/index.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Portuguese (Brazil)",LANGUAGE="pt-BR",DEFAULT=YES,AUTOSELECT=YES,URI="subtitles/pt-BR/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",URI="audio/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=240x426,CODECS="avc1.64001e,mp4a.40.2",SUBTITLES="subs"
240p/index.m3u8
`;
const PLAYLIST = (tag) => `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXTINF:2.000000,
seg_00000.vtt
#EXTINF:2.000000,
seg_00001.vtt
#EXT-X-ENDLIST
`.replaceAll('seg_', `${tag}-seg_`);
const MAP = 'X-TIMESTAMP-MAP=MPEGTS:9000,LOCAL:00:00:00.000';
const SEGMENTS = {
  'en-seg_00000.vtt': `WEBVTT\n${MAP}\n\n00:00:00.500 --> 00:00:01.000\nCrème brûlée — 日本語\n\n00:00:01.500 --> 00:00:02.500\nacross\n`,
  'en-seg_00001.vtt': `WEBVTT\n${MAP}\n\n00:00:01.500 --> 00:00:02.500\nacross\n`,
  'pt-BR-seg_00000.vtt': `WEBVTT\n${MAP}\n\n00:00:00.000 --> 00:00:04.000\nOlá — ação\n`,
  'pt-BR-seg_00001.vtt': `WEBVTT\n${MAP}\n\n00:00:00.000 --> 00:00:04.000\nOlá — ação\n`,
};

/** What the server would answer, by URL; records the URLs asked for. */
function fakeServer() {
  const asked = [];
  const fetchText = async (url) => {
    asked.push(url.replace(base, ''));
    const name = url.replace(base, '');
    if (name === 'master.m3u8') return MASTER;
    const playlist = /^subtitles\/([^/]+)\/index\.m3u8$/.exec(name);
    if (playlist) return PLAYLIST(playlist[1]);
    const segment = /^subtitles\/[^/]+\/(.+\.vtt)$/.exec(name);
    if (segment && SEGMENTS[segment[1]]) return SEGMENTS[segment[1]];
    throw new Error(`404 ${name}`);
  };
  return { asked, fetchText };
}

test('the master lists its subtitle renditions with absolute URIs; other media types are not captions', () => {
  equal(parseSubtitleRenditions(MASTER, `${base}master.m3u8`), [
    { name: 'English', language: 'en', uri: `${base}subtitles/en/index.m3u8`, isDefault: false },
    { name: 'Portuguese (Brazil)', language: 'pt-BR', uri: `${base}subtitles/pt-BR/index.m3u8`, isDefault: true },
  ]);
  equal(parseSubtitleRenditions('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n', base), []);
});

test('WebVTT timestamps with and without hours; malformed ones are NaN', () => {
  equal(parseTimestamp('01:02:03.004'), 3723.004);
  equal(parseTimestamp('02:03.500'), 123.5);
  assert(Number.isNaN(parseTimestamp('2:03.5')), 'short fields');
  assert(Number.isNaN(parseTimestamp('00:00:01,000')), 'a SubRip comma');
});

test('a segment\'s cues are moved onto the video timeline by its X-TIMESTAMP-MAP', () => {
  const { offset, cues } = parseWebVTT(SEGMENTS['en-seg_00000.vtt']);
  equal(offset, 0.1);
  equal(cues, [
    { start: 0.6, end: 1.1, text: 'Crème brûlée — 日本語' },
    { start: 1.6, end: 2.6, text: 'across' },
  ]);
  const local = parseWebVTT('WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:01.000,MPEGTS:90000\n\nNOTE hi\n\nid\n00:02.000 --> 00:03.000 align:start\na\nb\n');
  equal(local.cues, [{ start: 2, end: 3, text: 'a\nb' }], 'map keys in any order, NOTE skipped, id and settings dropped');
  let threw = false;
  try { parseWebVTT('1\n00:00:01.000 --> 00:00:02.000\n'); } catch { threw = true; }
  assert(threw, 'a file without the WEBVTT header is refused');
});

test('a CaptionTrack adds each cue once, switches language without leftovers, and hides', async () => {
  const video = document.createElement('video');
  const server = fakeServer();
  const drawn = [];
  const captions = new CaptionTrack(video, { fetchText: server.fetchText, onCues: (lines) => drawn.push(lines) });
  equal(await captions.show(`${base}master.m3u8`, { language: 'en', name: 'English' }), true);
  const track = [...video.textTracks][0];
  equal(video.textTracks.length, 1);
  equal(track.mode, 'hidden', 'the page draws the cues itself');
  equal([...track.cues].map((cue) => [cue.startTime, cue.endTime, cue.text]),
    [[0.6, 1.1, 'Crème brûlée — 日本語'], [1.6, 2.6, 'across']], 'the cue in both segments is added once');
  assert(server.asked.includes('subtitles/en/en-seg_00001.vtt'), 'segments within reach of the playhead are fetched');

  // By language when no rendition has the remembered name.
  equal(await captions.show(`${base}master.m3u8`, { language: 'pt-BR', name: 'Português' }), true);
  equal(video.textTracks.length, 1, 'one track for the element\'s whole life');
  equal([...track.cues].map((cue) => cue.text), ['Olá — ação'], 'no English left over');

  captions.hide();
  equal(track.mode, 'disabled');
  track.mode = 'hidden';
  equal(track.cues.length, 0, 'hiding drops the cues');
  equal(drawn.at(-1), [], 'and clears what the page drew');
  equal(await captions.show(`${base}master.m3u8`, { language: 'de', name: 'German' }), false, 'a language the post lacks');

  // The next holder of the element (another feed, a story, the full player) draws into the same track.
  const later = new CaptionTrack(video, { fetchText: server.fetchText, onCues: () => {} });
  equal(await later.show(`${base}master.m3u8`, { language: 'en', name: 'English' }), true);
  equal(video.textTracks.length, 1, 'a second CaptionTrack on the element takes over its track');
  later.hide();
});

test('the feed picks the remembered caption by name, else by language', () => {
  const item = { captions: [{ language: 'en', name: 'English' }, { language: 'en', name: 'English (original)' }, { language: 'pt', name: 'Portuguese' }] };
  equal(captionFor(item, { language: 'en', name: 'English (original)' }), item.captions[1]);
  equal(captionFor(item, { language: 'pt', name: 'Português' }), item.captions[2]);
  equal(captionFor(item, { language: 'de', name: 'German' }), null);
  equal(captionFor(item, null), null);
  equal(captionFor({}, { language: 'en', name: 'English' }), null);
  localStorage.setItem('reelhouse.captions', '{not json');
  equal(rememberedCaptions(), null, 'a damaged preference is no preference');
  localStorage.setItem('reelhouse.captions', JSON.stringify({ language: 'pt', name: 'Portuguese' }));
  equal(rememberedCaptions(), { language: 'pt', name: 'Portuguese' });
  localStorage.removeItem('reelhouse.captions');
});

run();
