// The page's <video> elements — exactly three, created once — and who holds them. The feed's
// pool plays them; the full player borrows one (`borrowPlayer`) and gives it back. Whatever
// screens come and go, the page never holds a fourth element.

const PAGE_VIDEO_COUNT = 3;
let videos = null;
let pool = null;                 // the live feed pool, if a feed is running
const outstanding = new Map();   // video → { player, engine, pool } while borrowed

/** The three elements, created on first use. */
export function pageVideos() {
  videos ??= Array.from({ length: PAGE_VIDEO_COUNT }, () => {
    const video = document.createElement('video');
    video.className = 'player';
    video.muted = true;
    video.playsInline = true;
    video.setAttribute('playsinline', '');
    video.preload = 'auto';
    return video;
  });
  return videos;
}

/** A pool says it is live (`next`), or that it stopped (`next` null, `stopped` the pool). */
export function registerPool(next, stopped = null) {
  if (next) pool = next;
  else if (pool === stopped) pool = null;
}

/** Whether `video` is out on loan (a pool created meanwhile must not touch it). */
export function lendVideo(video) {
  return outstanding.has(video);
}

/**
 * One of the page's elements with an engine player attached: `{ video, player, giveBack() }`.
 * From the feed's pool when a feed runs (it stops using that slot), else a free element with a
 * player from `engine()` (a promise or an engine; only asked when there is no pool). Null when
 * all three are already lent.
 */
export async function borrowPlayer({ engine }) {
  let loan = pool?.lend() ?? null;
  if (loan) loan.pool = pool;
  else {
    const video = pageVideos().find((candidate) => !outstanding.has(candidate));
    if (!video) return null;
    // Taken now, not once the engine has loaded: a feed pool created meanwhile (the app's
    // engine arrived first) must see this element as lent, or it would attach a player of its
    // own to it and lend it out again, and two players would drive one element.
    outstanding.set(video, null);
    let standaloneEngine;
    try {
      standaloneEngine = await engine();
    } catch (error) {
      outstanding.delete(video);
      throw error;
    }
    loan = { video, player: standaloneEngine.attach(video), engine: standaloneEngine, pool: null };
    video.loop = false;
  }
  outstanding.set(loan.video, loan);
  let returned = false;
  return {
    video: loan.video,
    player: loan.player,
    engine: loan.engine,
    giveBack() {
      if (returned) return;
      returned = true;
      outstanding.delete(loan.video);
      loan.video.pause();
      if (pool && pool === loan.pool) { pool.takeBack(loan.video, loan.player); return; }
      loan.engine.detach(loan.player);
      if (pool) pool.takeBack(loan.video, null);
      else loan.video.remove();
    },
  };
}
