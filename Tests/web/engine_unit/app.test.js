// The pure parts of the detail sheet, the full player and cast: links and #tags, the resume
// rule and the batched position saver, the cast decisions, data saver's rung choice; and the
// feed's pool on a lease of the playback service (the lease rules themselves: playback.test.js).
import { test, assert, equal, run } from './harness.js';
import { linkify, feedFromHereHref, parseTags, tagHref } from '../../../Web/js/detail/linkify.js';
import { byline, formatDuration, formatElapsed } from '../../../Web/js/ui/format.js';
import { renderDetail } from '../../../Web/js/detail/detail-view.js';
import { resumeAt, resumeRule, createPositionSaver, DEFAULT_RESUME_RULE } from '../../../Web/js/watch/resume.js';
import { castKind, castButtonVisible, castUrl, needsPlainSource } from '../../../Web/js/cast/cast-logic.js';
import { chooseVariant } from '../../../Web/js/player/abr.js';
import { createPlayerPool } from '../../../Web/js/feed/player-pool.js';
import { createPlaybackService, LAYER } from '../../../Web/js/playback/index.js';
import { postTitle } from '../../../Web/js/grid/post-title.js';
import { inPreferredOrder } from '../../../Web/js/ui/preferences.js';
import { showPreparing } from '../../../Web/js/feed/preparing.js';

test('linkify: links, #tags and text in order, joined back to the input', () => {
  const text = 'See https://example.org/a. and #Cats, not a#b or &#39; #café-time';
  const parts = linkify(text);
  equal(parts.map((p) => p.text).join(''), text);
  equal(parts.filter((p) => p.kind === 'link').map((p) => p.href), ['https://example.org/a']);
  equal(parts.filter((p) => p.kind === 'tag').map((p) => p.tag), ['cats', 'café']);
});

test("linkify: a #tag is linked where the server's Hashtags.find makes one, and only there", () => {
  // The case of ReelImportTests' SidecarEdgeCaseTests, whose server tags the links must match.
  const text = '#One#two word#not ##no #3 #ok_1, #日本 (#paren) #café-time #3#x #cafe\u0301';
  const parts = linkify(text);
  equal(parts.map((p) => p.text).join(''), text);
  equal(parts.filter((p) => p.kind === 'tag').map((p) => p.tag), ['one', 'two', 'ok_1', '日本', 'paren', 'café', 'x', 'cafe\u0301']);
  equal(parts.filter((p) => p.kind === 'tag').map((p) => p.text), ['#One', '#two', '#ok_1', '#日本', '#paren', '#café', '#x', '#cafe\u0301']);
});

test("a title leaves the caption's closing hashtags to the tags (PostTitle.shown)", () => {
  equal(postTitle({ id: 1, description: 'Colour bars at sunrise #retro #broadcast' }), 'Colour bars at sunrise');
  equal(postTitle({ id: 1, description: 'The #1 pick of #summer days' }), 'The #1 pick of #summer days');
  equal(postTitle({ id: 1, description: '#retro #broadcast\nColour bars' }), 'Colour bars');
  equal(postTitle({ id: 1, description: '#retro', shortcode: 'Cx1' }), 'Cx1');
  equal(postTitle({ id: 1, description: '#retro' }), '#retro');
  equal(postTitle({ id: 1, title: 'From the server #kept' }), 'From the server #kept');
  equal(postTitle({ id: 4 }), 'Post 4');
  // A word is a tag word when the server's Hashtags finds a tag in it (VideoEditingTests agrees).
  equal(postTitle({ id: 1, description: 'Golden walk #golden-hour #sun,' }), 'Golden walk');
  equal(postTitle({ id: 1, description: 'Pick #1' }), 'Pick #1');
});

test('captions in the order the browser asks for, the rest as they came', () => {
  const captions = [{ language: 'de' }, { language: 'en' }, { language: 'pt-BR' }, { language: 'pt' }];
  equal(inPreferredOrder(captions, ['pt-BR', 'en']).map((c) => c.language), ['pt-BR', 'pt', 'en', 'de']);
  equal(inPreferredOrder(captions, ['fr']).map((c) => c.language), ['de', 'en', 'pt-BR', 'pt']);
  equal(inPreferredOrder(captions, ['en-GB']).map((c) => c.language), ['en', 'de', 'pt-BR', 'pt']);
});

test('the full player counts whole seconds played: 7.6 s of 8 is not yet 0:08', () => {
  equal(formatElapsed(7.6, 8), '0:07 / 0:08');
  equal(formatElapsed(8, 8), '0:08 / 0:08');
  equal(formatElapsed(NaN, 64.4), '0:00 / 1:04');
  equal(formatElapsed(61.99, null), '1:01 / 0:00');
});

test('linkify: javascript: URLs stay text', () => {
  equal(linkify('javascript:alert(1)').map((p) => p.kind), ['text']);
});

test('tag and feed-from-here URLs carry the grid query', () => {
  equal(tagHref('sea life'), '/browse?tags=sea+life');
  equal(feedFromHereHref(7, { kind: 'browse', query: new URLSearchParams('tags=a,b&sort=title&start=3') }), '/?from=browse&tags=a%2Cb&sort=title&start=7');
  equal(feedFromHereHref(7, null), '/?start=7');
});

test('byline: an account is "@handle"; a post imported without one is named by its folder, with no "@"', () => {
  equal(byline({ username: 'sam', uploader: 'Sam Lee', folder_name: 'f' }), '@sam');
  equal(byline({ uploader: 'samlee', folder_name: 'f' }), '@samlee');
  equal(byline({ username: '@sam', folder_name: 'f' }), '@sam');
  equal(byline({ folder_name: 'still-pattern' }), 'still-pattern');
  equal(byline({}), 'unknown');
});

test('detail: the uploader links to their posts; a post without one names its folder and links nowhere', () => {
  const named = renderDetail({ id: 1, kind: 'photo', folder_name: 'f', uploader: 'Sam', username: 'sam', rating: 0 }, { isOwner: false });
  equal(named.querySelector('.detail-byline').textContent, 'by Sam @sam');
  equal(named.querySelector('.detail-uploader').getAttribute('href'), '/browse?uploader=Sam');
  const bare = renderDetail({ id: 2, kind: 'photo', folder_name: 'still-pattern', rating: 0 }, { isOwner: false });
  equal(bare.querySelector('.detail-byline').textContent, 'from the folder still-pattern');
  equal(bare.querySelector('.detail-uploader'), null);
});

test('parseTags and formatDuration', () => {
  equal(parseTags(' Cats, #dogs  cats\nsea '), ['cats', 'dogs', 'sea']);
  equal(formatDuration(64), '1:04');
  equal(formatDuration(3723), '1:02:03');
  equal(formatDuration(null), null);
});

test('resume: default rule, 60 s and longer, 5 %–90 %', () => {
  equal(resumeRule(null), { ...DEFAULT_RESUME_RULE });
  equal(resumeRule({ resume: { min_duration: 10 } }).min_duration, 10);
  equal(resumeAt(30, 64), 30);
  equal(resumeAt(30, 59), 0);      // too short a clip
  equal(resumeAt(2, 64), 0);       // under 5 %
  equal(resumeAt(60, 64), 0);      // over 90 %
  equal(resumeAt(null, 64), 0);
  equal(resumeAt(5, 20, { min_duration: 10, min_fraction: 0.1, max_fraction: 0.9 }), 5);
});

test('position saver: writes only when moved, clears once', async () => {
  const writes = [];
  const saver = createPositionSaver({ send: async (seconds) => { writes.push(seconds); }, initial: null });
  await saver.flush();
  equal(writes, []);                       // nothing played yet
  saver.update(10);
  await saver.flush();
  saver.update(10.2);
  await saver.flush();                     // moved < 0.5 s: no write
  saver.update(15);
  await saver.flush();
  await saver.clear();
  await saver.clear();
  equal(writes, [10, 15, null]);
});

test('position saver: a failed write is tried again', async () => {
  let fail = true;
  const writes = [];
  const saver = createPositionSaver({ send: async (seconds) => { if (fail) { fail = false; throw new Error('offline'); } writes.push(seconds); } });
  saver.update(12);
  await saver.flush();
  await saver.flush();
  equal(writes, [12]);
});

test('cast: which API, and the button only with a device and a master', () => {
  const remote = { remote: { watchAvailability() {}, prompt() {} } };
  equal(castKind(remote, {}), 'remote');
  equal(castKind({ webkitShowPlaybackTargetPicker() {} }, { WebKitPlaybackTargetAvailabilityEvent: class {} }), 'airplay');
  equal(castKind({}, {}), null);
  const item = { media: { master: '/media/1/master.m3u8?t=x' } };
  assert(!castButtonVisible({ kind: 'remote', available: false, item }), 'no device, no button');
  assert(castButtonVisible({ kind: 'remote', available: true, item }), 'a device, a button');
  assert(!castButtonVisible({ kind: null, available: true, item }), 'no API, no button');
  assert(!castButtonVisible({ kind: 'remote', available: true, item: { media: {} } }), 'no master, no button');
});

test('cast: the device gets the absolute signed master; a MediaSource element is switched first', () => {
  const url = castUrl({ media: { master: '/media/1/master.m3u8?token=abc&expires=9' } }, 'http://192.168.1.5:8080/p/1');
  equal(url, 'http://192.168.1.5:8080/media/1/master.m3u8?token=abc&expires=9');
  equal(castUrl({ media: {} }, 'http://x/'), null);
  const element = (src) => ({ getAttribute: () => src });
  assert(needsPlainSource(element('blob:http://x/123'), url), 'MSE needs the switch');
  assert(needsPlainSource(element(null), url), 'no src needs the switch');
  assert(!needsPlainSource(element(url), url), 'already the master');
});

test('data saver: always the lowest rung', () => {
  const variants = [{ width: 360, height: 640, bandwidth: 4e5 }, { width: 720, height: 1280, bandwidth: 2e6 }];
  equal(chooseVariant(variants, { throughputBps: 5e7, dataSaver: true }), 0);
  equal(chooseVariant(variants, { throughputBps: 5e7, current: 1, bufferAhead: 10, dataSaver: true }), 0);
  equal(chooseVariant(variants, { throughputBps: 5e7 }), 1);
});

/** An engine that records what it is told; its players never finish loading. */
const recordingEngine = () => ({
  focused: [],
  players: [],
  attach(video) {
    const player = { video, itemId: null, load(item) { this.itemId = item.id; return new Promise(() => {}); }, unload() { this.itemId = null; }, on() {} };
    this.players.push(player);
    return player;
  },
  detach() {},
  focus(player) { this.focused.push(player); },
  prefetch() {},
  stats: () => ({}),
});
const playerOf = (engine, video) => engine.players.find((player) => player.video === video);
const feedPool = (playback, onSeatsChange = () => {}) => {
  const element = document.createElement('article');
  element.innerHTML = '<div class="stage"></div>';
  return createPlayerPool({ playback, lookup: () => ({ item: { id: 1 }, element }), onReady() {}, onError() {}, onSeatsChange });
};

test('pool: a screen over the feed (stories, the full player) names the player on screen; the feed replanning behind it does not', async () => {
  const engine = recordingEngine();
  const playback = createPlaybackService({ loadEngine: () => engine });
  await playback.ready();
  let changes = 0;
  const pool = feedPool(playback, () => { changes += 1; });
  try {
    pool.apply([0, null, null]);
    pool.focus(0);
    const feedVideo = pool.slotFor(0).video;
    equal(engine.focused.at(-1) === playerOf(engine, feedVideo), true, 'the feed focuses its own player;');
    const stories = playback.lease({ name: 'stories', players: 1, layer: LAYER.cover });
    const [lent] = stories.players;
    assert(lent && lent.video !== feedVideo, 'an idle element is lent, not the one on screen');
    equal(engine.focused.at(-1), null, 'a screen on top clears the foreground until it names its player;');
    equal([changes, pool.slots.length], [1, 2], 'the feed hears that an element went;');
    stories.focus(lent);                   // the story on screen
    pool.focus(0);                         // a page of the feed arrives behind it
    equal(engine.focused.at(-1) === playerOf(engine, lent.video), true, 'the screen on top keeps the foreground;');
    stories.release();
    equal([changes, pool.slots.length], [2, 3], 'the feed has it back after the release;');
    equal(engine.focused.at(-1) === playerOf(engine, feedVideo), true, 'the feed\'s player on screen is the foreground again;');
  } finally {
    pool.destroy();
  }
});

test('lease: elements taken while the engine loads stay with their screen; a feed started meanwhile drives only the rest', async () => {
  const engine = recordingEngine();
  let engineLoaded;
  const loading = new Promise((resolve) => { engineLoaded = resolve; });
  const playback = createPlaybackService({ loadEngine: () => loading });
  const stories = playback.lease({ name: 'stories', players: 2, layer: LAYER.cover });   // opened before the engine arrived
  stories.players[0].load({ id: 7 }).catch(() => {});
  const pool = feedPool(playback);                                                        // the feed starts meanwhile
  try {
    equal(pool.slots.length, 1, 'the feed gets the element left over;');
    const storyVideos = stories.players.map((player) => player.video);
    assert(!pool.slots.some((slot) => storyVideos.includes(slot.video)), 'no feed slot on an element the stories hold');
    engineLoaded(engine);
    await playback.ready();
    equal(engine.players.length, 3, 'one engine player per element, never a second;');
    equal(playerOf(engine, storyVideos[0]).itemId, 7, 'the load asked before the engine arrived reached the story\'s element;');
    stories.release();
    equal(pool.slots.length, 3, 'and then all three are the feed\'s;');
  } finally {
    pool.destroy();
  }
});


test('preparing: shown while transcodes are pending, ready once one ends, nothing when none is', async () => {
  const box = document.createElement('div');
  const never = () => { throw new Error('not ready'); };
  equal(await showPreparing(box, { onReady: never, active: () => true, pending: async () => 0 }), null);
  equal(await showPreparing(box, { onReady: never, active: () => false, pending: async () => 2 }), null, 'a stopped feed');
  equal(box.innerHTML, '', 'nothing shown');
  const counts = [1, 1, 3, 2];
  let ready = 0;
  const stop = await showPreparing(box, { onReady: () => { ready += 1; }, active: () => true, pending: async () => counts.shift(), everyMs: 5 });
  equal(box.dataset.state, 'preparing');
  assert(box.textContent.includes('1 post is being processed'), box.textContent);
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert(box.textContent.includes('3 posts are being processed'), `a new import is counted: ${box.textContent}`);
  equal(ready, 1, 'ready once, when the count dropped from 3 to 2');
  equal(counts.length, 0, 'no more looks after ready');
  stop();
});

run();
