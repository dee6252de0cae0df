// How long the current item has really been on screen. A photo's time runs from the moment it
// was decoded and shown; a video's is its playhead, and it starts only when the first frame is
// actually presented (not when the item opens, Zuck.js #122). Pauses (hold, Space, a hidden
// page) stop it; a video that runs out of data pauses it by itself, with `onBuffering(true)`
// for the spinner, because a stalled playhead does not move.

const END_EPSILON = 0.05;   // seconds: a video's last frame can sit just short of `duration`

export function createStoryTimer({ kind, duration, video = null, onProgress, onStart, onEnd, onBuffering }) {
  const reasons = new Set();
  let started = false;
  let ended = false;
  let buffering = null;
  let elapsed = 0;        // photo: ms shown
  let last = 0;
  let frame = 0;
  const listeners = [];
  const on = (name, handler) => { video.addEventListener(name, handler); listeners.push(() => video.removeEventListener(name, handler)); };

  const photoMs = Math.max(0.5, duration || 5) * 1000;
  const videoLength = () => (Number.isFinite(video?.duration) && video.duration > 0 ? video.duration : duration || 0);

  function setBuffering(on) {
    if (buffering === on) return;
    buffering = on;
    onBuffering?.(on);
  }

  function progress() {
    if (kind === 'photo') return Math.min(1, elapsed / photoMs);
    const total = videoLength();
    return started && total ? Math.min(1, video.currentTime / total) : 0;
  }

  function finish() {
    if (ended) return;
    ended = true;
    onProgress(1);
    cancelAnimationFrame(frame);
    onEnd();
  }

  function tick() {
    frame = 0;
    if (ended) return;
    if (kind === 'photo' && started && reasons.size === 0) {
      const now = performance.now();
      elapsed += now - last;
      last = now;
    }
    if (kind === 'video' && started && reasons.size === 0) {
      // Playing but without the next frames (readyState < HAVE_FUTURE_DATA): a stall.
      setBuffering(!video.ended && video.readyState < 3);
    }
    const value = progress();
    onProgress(value);
    if (kind === 'photo' && value >= 1) { finish(); return; }
    if (kind === 'video' && started && videoLength() && video.currentTime >= videoLength() - END_EPSILON && video.paused) { finish(); return; }
    schedule();
  }

  function schedule() {
    if (!frame && !ended) frame = requestAnimationFrame(tick);
  }

  function begin() {
    if (started || ended) return;
    started = true;
    last = performance.now();
    onStart?.();
    schedule();
  }

  if (kind === 'video') {
    on('timeupdate', () => {
      if (!started && video.currentTime > 0 && !video.paused) begin();
      if (started) { setBuffering(false); onProgress(progress()); }
    });
    on('playing', () => {
      // The first frame is on screen when the compositor presents it.
      if (!started && video.requestVideoFrameCallback) video.requestVideoFrameCallback(() => begin());
      if (started) setBuffering(false);
    });
    on('waiting', () => { if (!video.ended) setBuffering(true); });
    on('stalled', () => { if (!video.paused && video.readyState < 3) setBuffering(true); });
    on('ended', () => { if (started) finish(); });
  }

  return {
    get started() { return started; },
    get progress() { return progress(); },
    /** The photo is decoded and on screen: its time starts now. */
    photoShown() { if (kind === 'photo') begin(); else schedule(); },
    pause(reason) {
      if (reasons.has(reason)) return;
      if (reasons.size === 0 && kind === 'photo' && started) elapsed += performance.now() - last;
      reasons.add(reason);
      if (video && !video.paused) video.pause();
    },
    resume(reason) {
      if (!reasons.delete(reason) || reasons.size) return;
      last = performance.now();
      if (video && !ended) video.play().catch(() => {});
      schedule();
    },
    get paused() { return reasons.size > 0; },
    destroy() {
      ended = true;
      cancelAnimationFrame(frame);
      listeners.forEach((off) => off());
    },
  };
}
