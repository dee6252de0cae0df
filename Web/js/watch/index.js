// The full player (Play in the detail sheet): one of the page's three <video> elements, leased
// from the playback service (js/playback/: over the feed, which plays on with the other two),
// played through the page's engine, with a seek bar (←/→ 5 s, space plays/pauses), fullscreen,
// picture-in-picture, captions and cast; the position is restored on Play when the resume rule
// allows and saved while watching (resume.js). Watch events (impression, view/skip) for For You
// come from watch-events.js.
import { LAYER } from '../playback/index.js';
import { request } from '../api.js';
import { h } from '../ui/dom.js';
import { formatElapsed } from '../ui/format.js';
import { icon } from '../ui/icons.js';
import { resumeRule, resumeAt, createPositionSaver, SAVE_INTERVAL_MS } from './resume.js';
import { wireCaptions } from './captions.js';
import { wireCast } from '../cast/index.js';
import { rememberedMuted } from '../ui/preferences.js';
import { startPlayerWatchEvents } from './watch-events.js';

const SEEK_STEP = 5;
// Icons only the full player uses (ui/icons.js has the feed's).
const FULLSCREEN_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 4h6v2H6v4H4zm10 0h6v6h-2V6h-4zM4 14h2v4h4v2H4zm14 0h2v6h-6v-2h4z"/></svg>';
const CAST_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M1 18v3h3a3 3 0 00-3-3zm0-4v2a5 5 0 015 5h2a7 7 0 00-7-7zm0-4v2a9 9 0 019 9h2A11 11 0 001 10zm20-7H3a2 2 0 00-2 2v3h2V5h18v14h-7v2h7a2 2 0 002-2V5a2 2 0 00-2-2z"/></svg>';

function sendPosition(id, seconds, { keepalive = false } = {}) {
  const body = JSON.stringify({ seconds });
  if (!keepalive) return request('PUT', `/api/v1/videos/${id}/position`, { seconds });
  // Leaving the page: keepalive lets the request outlive it (sendBeacon cannot PUT).
  return fetch(`/api/v1/videos/${id}/position`, {
    method: 'PUT', keepalive: true, credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body,
  });
}

function controls() {
  const button = (action, label, iconName) => h('button', { type: 'button', class: `watch-${action}`, 'data-watch': action, 'aria-label': label, title: label, innerHTML: iconName ? icon(iconName) : '' });
  const seek = h('input', { type: 'range', class: 'watch-seek', min: '0', max: '0', step: 'any', value: '0', 'aria-label': 'Seek' });
  const time = h('span', { class: 'watch-time', 'aria-live': 'off' }, '0:00 / 0:00');
  const captions = h('select', { class: 'watch-captions', 'aria-label': 'Captions', hidden: true });
  const cast = h('button', { type: 'button', class: 'watch-cast', 'data-watch': 'cast', 'aria-label': 'Cast to a device', title: 'Cast', hidden: true, innerHTML: CAST_ICON });
  const pip = button('pip', 'Picture in picture', 'pip');
  pip.hidden = !document.pictureInPictureEnabled;
  const fullscreen = h('button', { type: 'button', class: 'watch-fullscreen', 'data-watch': 'fullscreen', 'aria-label': 'Fullscreen', title: 'Fullscreen', innerHTML: FULLSCREEN_ICON });
  const line = h('div', { class: 'watch-captions-line', 'aria-live': 'off', hidden: true });
  const bar = h('div', { class: 'watch-controls' },
    button('toggle', 'Pause', 'pause'), time, seek, captions, cast, pip,
    h('button', { type: 'button', class: 'watch-mute', 'data-watch': 'mute', 'aria-label': 'Mute', innerHTML: icon('soundOn') }), fullscreen);
  return { bar, seek, time, captions, cast, line };
}

/**
 * Plays `item` inside `container` (the sheet's poster header) on an element leased from
 * `playback` (the page's playback service). Returns `{ destroy(), ready }` at once; destroying
 * (even before the engine arrived) saves the position and gives the element back.
 */
export function startWatch(container, { item, playback }) {
  const wrapper = h('div', { class: 'watch loading', tabindex: '-1', role: 'group', 'aria-label': 'Player' });
  container.classList.add('watching');
  container.append(wrapper);
  const status = h('p', { class: 'watch-status', role: 'status' }, 'Loading…');
  wrapper.append(status);
  let destroyed = false;
  // Taken at once (the element is ours even while the engine loads); a screen opened over this
  // one that takes the element closes the player, with its position saved (teardown).
  const lease = playback.lease({ name: 'watch', players: 1, layer: LAYER.cover, onChange: () => { if (!lease.players.length) destroy(); } });
  let teardown = () => lease.release();   // play() replaces it once it has wired the element
  const ready = run();

  function destroy() {
    if (destroyed) return;
    destroyed = true;
    teardown();
    wrapper.remove();
    container.classList.remove('watching');
  }

  async function run() {
    const me = await request('GET', '/api/v1/me').catch(() => null);
    if (destroyed) return;
    const [player] = lease.players;
    if (!player) { status.textContent = 'No player is free right now.'; return; }
    await play(player, me);
  }

  async function play(player, me) {
    const { video } = player;
    const ui = controls();
    video.controls = false;
    video.classList.add('watch-video');
    wrapper.prepend(video);
    wrapper.append(ui.line, ui.bar);
    const rule = resumeRule(me);
    const saver = createPositionSaver({ send: (seconds, options) => sendPosition(item.id, seconds, options), initial: item.position ?? null });
    let timer = 0;
    let casting = false;
    let watchEvents = null;   // from the start of playback
    let started = false;      // the item loaded and showed: only then is the playhead a position to save
    const listeners = [];
    const on = (target, name, handler, options) => { target.addEventListener(name, handler, options); listeners.push(() => target.removeEventListener(name, handler, options)); };

    const duration = () => (Number.isFinite(video.duration) ? video.duration : item.duration ?? 0);
    function renderTime() {
      const total = duration();
      ui.seek.max = String(total || 0);
      if (document.activeElement !== ui.seek || !ui.seek.matches(':active')) ui.seek.value = String(video.currentTime);
      ui.seek.style.setProperty('--p', `${total ? (video.currentTime / total) * 100 : 0}%`);
      ui.time.textContent = formatElapsed(video.currentTime, total);
      if (started) saver.update(video.currentTime);
    }
    function renderPlaying() {
      const toggle = ui.bar.querySelector('[data-watch=toggle]');
      toggle.innerHTML = icon(video.paused ? 'play' : 'pause');
      toggle.setAttribute('aria-label', video.paused ? 'Play' : 'Pause');
      wrapper.classList.toggle('paused', video.paused);
      const mute = ui.bar.querySelector('[data-watch=mute]');
      mute.innerHTML = icon(video.muted ? 'soundOff' : 'soundOn');
      mute.setAttribute('aria-label', video.muted ? 'Unmute' : 'Mute');
    }
    function resume() {
      video.play().catch((error) => {
        if (error?.name === 'NotAllowedError' && !video.muted) { video.muted = true; video.play().catch(() => {}); }
      });
    }
    function seekBy(seconds) {
      video.currentTime = Math.min(Math.max(0, video.currentTime + seconds), Math.max(0, duration() - 0.1));
      renderTime();
    }
    function toggle() { if (video.paused) resume(); else video.pause(); }
    function toggleFullscreen() {
      if (document.fullscreenElement) { document.exitFullscreen().catch(() => {}); return; }
      if (wrapper.requestFullscreen) wrapper.requestFullscreen().catch(() => {});
      else video.webkitEnterFullscreen?.();   // iPhone: only the element itself goes fullscreen
    }
    async function togglePictureInPicture() {
      try {
        if (document.pictureInPictureElement) await document.exitPictureInPicture();
        else await video.requestPictureInPicture();
      } catch { /* refused: nothing to undo */ }
    }
    /** Cast: the device needs the master URL, so the element leaves its MediaSource for it. */
    function switchToMaster(url) {
      const at = video.currentTime;
      casting = true;
      player.unload();
      video.src = url;
      video.currentTime = at;
      resume();
    }

    on(ui.bar, 'click', (event) => {
      const action = event.target.closest('[data-watch]')?.dataset.watch;
      if (action === 'toggle') toggle();
      else if (action === 'mute') { video.muted = !video.muted; renderPlaying(); }
      else if (action === 'fullscreen') toggleFullscreen();
      else if (action === 'pip') togglePictureInPicture();
    });
    on(ui.seek, 'input', () => { video.currentTime = Number(ui.seek.value); renderTime(); });
    on(video, 'click', toggle);
    on(wrapper, 'keydown', (event) => {
      if (event.target.matches?.('select, textarea, input:not([type=range])')) return;
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        seekBy(event.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP);
      } else if (event.key === ' ' && !event.target.matches?.('button')) {
        event.preventDefault();
        toggle();
      } else if (event.key === 'f' || event.key === 'F') toggleFullscreen();
    });
    on(video, 'timeupdate', renderTime);
    on(video, 'durationchange', renderTime);
    on(video, 'play', () => { renderPlaying(); clearInterval(timer); timer = setInterval(() => saver.flush(), SAVE_INTERVAL_MS); });
    on(video, 'pause', () => { renderPlaying(); clearInterval(timer); if (started && !video.ended) saver.flush(); });
    on(video, 'volumechange', renderPlaying);
    on(video, 'ended', () => { clearInterval(timer); saver.clear(); renderPlaying(); });
    const leave = () => { if (started && !video.ended) { saver.update(video.currentTime); saver.flush({ keepalive: true }); } };
    on(window, 'pagehide', leave);
    on(document, 'visibilitychange', () => { if (document.hidden) leave(); });

    const captions = wireCaptions(video, ui.captions, ui.line, item);
    const cast = wireCast(video, ui.cast, { item, switchToMaster });

    // Runs once, whenever the player goes: closed while the engine or the item still loads (a
    // load cut short may never settle), closed while playing, or its element taken by a screen
    // opened over it (the element still as this player left it: the service resets it after).
    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      clearInterval(timer);
      watchEvents?.stop();   // the view is read off the element, so before it is given back
      if (started && !video.ended) { saver.update(video.currentTime); saver.flush(); }
      listeners.forEach((off) => off());
      captions.destroy();
      cast.destroy();
      if (document.pictureInPictureElement === video) document.exitPictureInPicture().catch(() => {});
      if (casting) { video.removeAttribute('src'); video.load(); }
      lease.release();   // the service puts the element back as it made it (class, playhead, muted)
    };
    teardown = cleanup;
    try {
      await player.load(item);
    } catch (error) {
      if (destroyed) return;
      status.textContent = error?.message ? `This video can't be played: ${error.message}` : "This video can't be played.";
      wrapper.classList.remove('loading');
      return;
    }
    if (destroyed) return;
    started = true;
    const start = resumeAt(item.position, duration(), rule);
    if (start > 0) video.currentTime = start;
    wrapper.dataset.resumedAt = String(start);
    lease.focus(player);
    wrapper.classList.remove('loading');
    status.remove();
    video.muted = rememberedMuted();   // Profile's "Start muted"
    renderTime();
    renderPlaying();
    watchEvents = startPlayerWatchEvents(item, video);
    resume();
    wrapper.focus({ preventScroll: true });
  }

  return { destroy, ready };
}
