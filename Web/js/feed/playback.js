// Who plays: only the current item's video, and only while the user has not paused it, is not
// holding a long-press, and the tab is visible. Every other pooled video is paused and muted.
// Autoplay with sound may be refused by the browser; then the video plays muted with a hint.
import { rememberMuted, rememberedMuted } from '../ui/preferences.js';

export function createPlayback({ pool, elementFor }) {
  let muted = rememberedMuted();
  let forcedMuted = false;     // the browser refused sound this visit
  let userPaused = false;
  let held = false;
  let suspended = false;       // the feed is hidden behind another screen of the app
  let currentKey = null;
  let progressFrame = 0;

  const effectiveMuted = () => muted || forcedMuted;

  function currentSlot() {
    return currentKey === null ? null : pool.slotFor(currentKey);
  }

  function start(slot) {
    const video = slot.video;
    video.muted = effectiveMuted();
    if (!video.paused) return;
    video.play().catch((error) => {
      if (error?.name !== 'NotAllowedError' || video.muted) return;
      // Sound needs a user gesture here: play muted and offer the unmute hint.
      forcedMuted = true;
      video.muted = true;
      renderSound();
      if (slot.key === currentKey) video.play().catch(() => {});
    });
  }

  function renderSound() {
    const element = currentKey === null ? null : elementFor(currentKey);
    document.querySelectorAll('.reel .unmute-hint').forEach((hint) => { hint.hidden = true; });
    document.querySelectorAll('.reel .mute').forEach((button) => {
      button.setAttribute('aria-pressed', String(!effectiveMuted()));
      button.setAttribute('aria-label', effectiveMuted() ? 'Turn sound on' : 'Turn sound off');
    });
    document.body.classList.toggle('sound-on', !effectiveMuted());
    const hint = element?.querySelector('.unmute-hint');
    if (hint) hint.hidden = !effectiveMuted();
  }

  function trackProgress() {
    cancelAnimationFrame(progressFrame);
    const slot = currentSlot();
    const element = currentKey === null ? null : elementFor(currentKey);
    const scrub = element?.querySelector('.scrub');
    if (!slot || !scrub) return;
    const step = () => {
      const { currentTime, duration } = slot.video;
      if (Number.isFinite(duration) && duration > 0 && document.activeElement !== scrub) {
        scrub.value = String(Math.round((currentTime / duration) * 1000));
        scrub.style.setProperty('--p', `${((currentTime / duration) * 100).toFixed(2)}%`);
      }
      progressFrame = requestAnimationFrame(step);
    };
    step();
  }

  function update() {
    for (const slot of pool.slots) {
      const isCurrent = slot.key !== null && slot.key === currentKey;
      if (isCurrent && slot.ready && !userPaused && !held && !suspended && !document.hidden) {
        start(slot);
      } else {
        slot.video.pause();
        slot.video.muted = isCurrent ? effectiveMuted() : true;
      }
    }
    document.body.classList.toggle('paused', userPaused);
  }

  return {
    get muted() { return effectiveMuted(); },
    get userPaused() { return userPaused; },
    /** `key` is the current item's feed position, or null when it is not a video. */
    setCurrent(key) {
      if (key === currentKey) return;
      currentKey = key;
      userPaused = false;
      held = false;
      update();
      renderSound();
      trackProgress();
    },
    update,
    /** Called when a pooled player becomes ready (it may be the current one). */
    playerReady() { update(); trackProgress(); },
    togglePause() { userPaused = !userPaused; update(); return userPaused; },
    hold(on) { held = on; update(); },
    /** Hidden behind another screen: nothing plays until the feed is shown again. */
    suspend(on) { suspended = on; update(); },
    toggleMute() {
      muted = !effectiveMuted();
      forcedMuted = false;
      rememberMuted(muted);
      update();
      renderSound();
    },
    unmute() { if (effectiveMuted()) this.toggleMute(); },
    seek(fraction) {
      const slot = currentSlot();
      if (slot && Number.isFinite(slot.video.duration)) slot.video.currentTime = fraction * slot.video.duration;
    },
    currentVideo: () => currentSlot()?.video ?? null,
    stop() { cancelAnimationFrame(progressFrame); currentKey = null; update(); },
  };
}
