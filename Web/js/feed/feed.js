// The feed screen: pages items in from the server, lays them out one per screen, keeps the
// three pooled players on the current / next / previous video, and routes every gesture, key
// and overlay button to what it does.
import { api } from '../api.js';
import { showToast } from '../ui/toast.js';
import { toggleHelp } from '../ui/help.js';
import { createFeedSource } from './feed-source.js';
import { listLabel, listPageFetcher } from './list-source.js';
import { planPool, prefetchTargets } from './pool-plan.js';
import { createPager } from './pager.js';
import { createPlayerPool } from './player-pool.js';
import { createPlayback } from './playback.js';
import { createItemElement, loadImagesNear, showItemError, clearItemError, flashIndicator, burstHeart, refreshImages } from './item-view.js';
import { wireCarousel, stepCarousel } from './carousel.js';
import { toggleInfo, toggleDescription } from './overlay.js';
import { setLiked, setRating } from './social.js';
import { wireGestures } from './gestures.js';
import { wireKeyboard } from './keyboard.js';
import { renderState } from './states.js';
import { showPreparing } from './preparing.js';
import { wireMediaSession, describeForMediaSession } from './media-session.js';
import { autoplayNextOn } from '../ui/preferences.js';
import { createCaptionsControl } from './captions-control.js';
import { createFeedWatchEvents } from './watch-events.js';
import { createMoreMenus } from './more-menu.js';
import { createPostHider } from './hide-posts.js';
import { shareLink, copyLink } from './share.js';
import { recordEvent, flushBeforeFeedPage } from '../events/index.js';

const HOLD_IMAGES_MS = 2000;

const ERROR_TEXT = {
  network: "This video couldn't be loaded. Check your connection.",
  expired: "This video's link has expired and couldn't be renewed.",
  key: "This video's key was rejected, so it can't be decrypted.",
  decode: "This video couldn't be decoded.",
  unsupported: "This browser can't play this video.",
};

/** Error codes a retry may fix by itself once the server answers again. */
const RETRIED_WHEN_BACK = new Set(['network', 'expired']);

/**
 * `list` (list-source.js's listFromQuery) plays a browse / search / shelf / collection /
 * favorites list from one post on instead of the endless feed; `tag` filters the endless feed.
 * `mode` (for_you / shuffle / latest, or null: the server's choice) orders the endless feed;
 * `onMode(mode)` hears which mode the server played; `onRestart()` starts the same feed over from
 * its first page ("Check again", a library being prepared). `playback` is the page's playback service:
 * the feed's players are a lease of its elements (player-pool.js); `store` the app's state
 * store (a like saved here is its `postChanged`).
 */
export function startFeed({ playback: playbackService, store, lookAhead, tag, list = null, mode = null, onMode = () => {}, onUnauthorized, onFilterChange, onRestart, connectivity, refresher, holdImages = true }) {
  const scroller = document.getElementById('feed');
  const stateBox = document.getElementById('feed-state');
  // Events go out before each page, so the page already reflects what was just watched.
  const feedPage = async (query) => {
    await flushBeforeFeedPage();
    const page = await api.feed({ ...query, mode });
    if (page?.mode) onMode(page.mode);
    return page;
  };
  const source = list
    ? createFeedSource({ fetchPage: listPageFetcher(api, list) })
    : createFeedSource({ fetchPage: feedPage, filter: tag ? { tags: tag } : {} });
  // One entry per feed position ({ item, element, removed }); positions, not API ids, name
  // items here, because after the library wraps one post can be on the page twice. An entry
  // hidden with "Not interested" keeps its position (removed: true) and gets no player.
  const entries = [];
  let pageFailed = false;
  let stopped = false;
  // Looks again while the library's first videos are being transcoded (preparing.js).
  let stopPreparing = null;
  // "Next" asked for on the last loaded item while the next page is on its way: honoured when
  // the page lands, so a key press at the end of a slow page is not lost.
  let nextQueued = false;
  // Until the first video on screen shows its first frame, only its own poster loads: the
  // neighbours' images would share a slow link with its first segment (issue 29). Then, or
  // after HOLD_IMAGES_MS, or on an error, they load as usual; a photo on screen holds nothing.
  let imagesHeld = holdImages;
  const releaseImages = () => {
    if (!imagesHeld) return;
    imagesHeld = false;
    if (!stopped && entries.length) loadImages();
  };
  if (imagesHeld) setTimeout(releaseImages, HOLD_IMAGES_MS);

  const lookup = (key) => entries[key] ?? null;
  const entryOf = (element) => entries[Number(element?.dataset.entry)] ?? null;
  const pool = createPlayerPool({
    playback: playbackService, lookup,
    // A screen over the feed took an element, or gave it back: put the feed's players in place again.
    onSeatsChange: () => { if (!stopped && source.items.length) { planPlayers(); playback.playerReady(); captions.update(); } },
    onReady: (slot, { element }) => {
      clearItemError(element);
      playback.playerReady();
      captions.update();
      if (element === currentEntry()?.element) releaseImages();
    },
    onError: (slot, { element }, error) => {
      releaseImages();
      showItemError(element, ERROR_TEXT[error?.code] ?? error?.message ?? ERROR_TEXT.decode);
      element.dataset.errorCode = error?.code ?? 'unknown';
      // The engine's own words, for a bug report (the visible text is the friendly one above).
      element.dataset.errorDetail = error?.message ?? String(error);
    },
  });
  const playback = createPlayback({ pool, elementFor: (key) => entries[key]?.element ?? null });
  const pager = createPager({ scroller, onCurrentChange });
  const captions = createCaptionsControl({ pool, entryFor: (key) => entries[key] ?? null });
  const watch = createFeedWatchEvents({ scroller, currentEntry, currentVideo: () => playback.currentVideo() });
  const menus = createMoreMenus();
  const hider = createPostHider({
    entries, changed: afterHiding,
    focusCurrent: () => currentEntry()?.element.querySelector('[data-action="more"]')?.focus({ preventScroll: true }),
  });

  function currentEntry() {
    return entries[pager.current] ?? null;
  }

  function planPlayers() {
    // Positions of the entries still shown: only they get players, images and prefetches.
    const keys = entries.flatMap((entry, index) => (entry.removed ? [] : [index]));
    const kinds = keys.map((key) => entries[key].item.kind);
    const current = keys.indexOf(pager.current);
    pool.apply(planPool({ ids: keys, kinds, current, slots: pool.assignment(), reach: lookAhead ? 3 : 1 }));
    // Autoplay next (Profile → Preferences): videos play once and the feed moves on (onEnded).
    const loop = !autoplayNextOn();
    for (const slot of pool.slots) slot.video.loop = loop;
    pool.focus(kinds[current] === 'video' ? keys[current] : null);
    captions.update();
    loadImages();
    // The engine's prefetch list is one list: while stories or the full player cover the feed,
    // theirs is the one that counts (the playback service keeps ours for when they close).
    if (lookAhead) pool.prefetch(prefetchTargets(kinds, current).map((index) => entries[keys[index]].item));
  }

  /** Images near the screen (item-view.js); while held, only the on-screen video's poster. */
  function loadImages() {
    const keys = entries.flatMap((entry, index) => (entry.removed ? [] : [index]));
    const current = keys.indexOf(pager.current);
    if (imagesHeld && entries[pager.current]?.item.kind !== 'video') imagesHeld = false;
    const elements = keys.map((key) => entries[key].element);
    loadImagesNear(imagesHeld ? elements.slice(current, current + 1) : elements, imagesHeld ? 0 : current, imagesHeld ? { ahead: 0 } : undefined);
  }

  /**
   * Whether few enough shown items are left after the current one to fetch the next page.
   * Counted on the source's items (a page being appended is not all in `entries` yet), less
   * the entries after the current one that were hidden.
   */
  function wantsMore() {
    const hiddenAfter = entries.slice(pager.current + 1).filter((entry) => entry.removed).length;
    return source.wantsMore(pager.current + hiddenAfter);
  }

  function onCurrentChange(index) {
    nextQueued = false;
    const item = source.items[index];
    menus.close({ refocus: false });
    watch.leaving();
    planPlayers();
    playback.setCurrent(item.kind === 'video' ? index : null);
    captions.setCurrent(item.kind === 'video' ? index : null);
    watch.arrived();
    describeForMediaSession(item);
    if (wantsMore()) loadMore();
  }

  function appendItems(fromIndex) {
    source.items.slice(fromIndex).forEach((item, offset) => {
      const element = createItemElement(item);
      element.dataset.entry = String(fromIndex + offset);
      captions.render(element, item);
      const removed = hider.hides(item);   // a post or uploader hidden a moment ago, still in this page
      element.hidden = removed;
      entries.push({ item, element, removed });
      if (item.kind === 'carousel') wireCarousel(element);
      pager.append(element);
    });
  }

  /** Entries left the window (or came back): move off a hidden current item, replan players. */
  function afterHiding(changed, { removed }) {
    if (removed) {
      const current = pager.current;
      if (entries[current]?.removed) {
        const next = pager.nearest(current, 1);
        pager.goTo(next >= 0 ? next : pager.nearest(current, -1), { instant: true });
      }
    } else if (changed.length) {
      pager.goTo(entries.indexOf(changed[0]), { instant: true });
    }
    planPlayers();
    if (wantsMore()) loadMore();
  }

  async function loadMore() {
    if (source.loading || stopped) return;
    const before = source.items.length;
    if (before === 0) renderState(stateBox, { kind: 'loading' });
    try {
      await source.loadMore();
      pageFailed = false;
      if (stopped) return;
      if (source.items.length === 0) {
        stopPreparing?.();
        stopPreparing = list || tag ? null : await showPreparing(stateBox, { onReady: onRestart, active: () => !stopped });
        if (stopPreparing || stopped) return;
        const state = list ? { kind: 'list-empty', label: listLabel(list) } : tag ? { kind: 'no-match', tag } : { kind: 'empty' };
        renderState(stateBox, state, {
          onRetry: onRestart, onClearFilter: () => onFilterChange(null),
        });
        return;
      }
      renderState(stateBox, null);
      // The first page: the video that goes on screen first starts downloading now, before the
      // page is laid out and its player asks (player/quick-start.js).
      if (before === 0 && !hider.hides(source.items[0])) playbackService.startSoon?.(source.items[0]);
      appendItems(before);
      planPlayers();
      if (nextQueued) goNext();
      if (wantsMore() && source.items.length > before) loadMore();
    } catch (error) {
      if (stopped) return;
      if (error?.isUnauthorized) { onUnauthorized(); return; }
      pageFailed = true;
      nextQueued = false;
      if (error?.isOffline) connectivity.showOffline();
      if (before === 0) {
        renderState(stateBox, { kind: 'error', offline: error?.isOffline, message: error?.message }, { onRetry: loadMore });
      } else {
        showToast("Couldn't load more posts. Retrying when the connection is back.", { kind: 'error' });
      }
    }
  }

  /** Moves to the next shown item; on the last loaded one, as soon as the next page lands. */
  function goNext() {
    nextQueued = false;
    if (pager.goTo(pager.step(1)) || source.exhausted) return;
    nextQueued = true;
    if (!source.loading) loadMore();
  }

  /**
   * The retry button, and the return of the server: the post is refetched first (its URLs may
   * be what failed), then the item loads again with whatever URLs it has.
   */
  async function retryEntry(element, { force }) {
    const entry = entryOf(element);
    if (!entry) return;
    clearItemError(element);
    element.classList.add('loading');
    try {
      await refresher.refresh(entry.item, { force });
    } catch { /* refused or unreachable: the load below shows the error again */ }
    element.classList.remove('loading');
    if (stopped) return;
    refreshImages(element, entry.item);
    pool.reload(Number(element.dataset.entry));
  }

  /**
   * A feed image failed (posters, photos, carousel slides): its signed URL may be dead (a
   * rotated secret). Refetch the post once a minute at most and point the images at the
   * fresh URLs; an image post that still cannot load shows its error and retry button.
   */
  function imageFailed(image) {
    const element = image.closest('.reel');
    const entry = entryOf(element);
    if (!entry || !image.getAttribute('src')) return;
    refresher.refresh(entry.item, { stale: element.imagesMedia }).then(() => {
      if (!stopped) refreshImages(element, entry.item);
    }, (error) => {
      if (stopped) return;
      // No server (a restart): load the same images again once it answers.
      if (error?.status === 0) { connectivity.whenBack().then(() => { if (!stopped) refreshImages(element, entry.item); }); return; }
      if (element.classList.contains('kind-video')) return; // the video covers its poster anyway
      showItemError(element, "This image couldn't be loaded.");
      element.dataset.errorCode = error?.code ?? 'expired';
    });
  }

  function like(element, liked) {
    const entry = entryOf(element);
    if (entry) setLiked(entry.item, element, liked ?? !entry.item.is_favorited, { store });
  }

  /** The ⋯ panel's actions; the panel closes first (focus goes back to ⋯). */
  function moreAction(action, entry) {
    menus.close();
    switch (action) {
      case 'share': shareLink(entry.item); break;
      case 'copy-link': copyLink(entry.item); break;
      case 'download': recordEvent('download', entry.item.id); break;
      case 'not-interested': hider.notInterested(entry.item); break;
      case 'hide-uploader': hider.hideUploader(entry.item); break;
    }
  }

  async function togglePictureInPicture() {
    try {
      if (document.pictureInPictureElement) await document.exitPictureInPicture();
      else await playback.currentVideo()?.requestPictureInPicture();
    } catch { showToast("Picture-in-picture isn't available here."); }
  }

  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen?.().catch(() => showToast("Fullscreen isn't available here."));
  }

  function togglePause(element = currentEntry()?.element) {
    if (!element || element !== currentEntry()?.element || !element.classList.contains('kind-video')) return;
    flashIndicator(element, playback.togglePause());
  }

  scroller.addEventListener('click', (event) => {
    const button = event.target.closest('[data-action]');
    const element = button?.closest('.reel');
    if (!button || !element) return;
    const entry = entryOf(element);
    if (!entry) return;
    switch (button.dataset.action) {
      case 'like': like(element); break;
      case 'rate': {
        const value = Number(button.dataset.value);
        setRating(entry.item, element, entry.item.rating === value ? 0 : value, { store });
        break;
      }
      case 'info': toggleInfo(element); break;
      case 'expand': toggleDescription(button); break;
      case 'tag': onFilterChange(button.dataset.tag); break;
      case 'mute': playback.toggleMute(); break;
      case 'captions': captions.cycle(element, entry.item); break;
      case 'unmute': playback.unmute(); break;
      case 'pip': togglePictureInPicture(); break;
      case 'retry': retryEntry(element, { force: true }); break;
      case 'carousel-prev': stepCarousel(element, -1); break;
      case 'carousel-next': stepCarousel(element, 1); break;
      case 'more': menus.toggle(button); break;
      case 'share': case 'copy-link': case 'download': case 'not-interested': case 'hide-uploader':
        moreAction(button.dataset.action, entry);
        break;
    }
  });
  // `error` does not bubble: listen in the capture phase for every image in the feed.
  // `ended` does not bubble either; it only comes when autoplay next turned looping off.
  scroller.addEventListener('ended', (event) => {
    if (event.target instanceof HTMLVideoElement && event.target === playback.currentVideo() && !playback.userPaused) {
      goNext();
    }
  }, true);
  scroller.addEventListener('error', (event) => {
    if (event.target instanceof HTMLImageElement) imageFailed(event.target);
  }, true);
  scroller.addEventListener('input', (event) => {
    if (event.target.matches('.scrub')) playback.seek(Number(event.target.value) / 1000);
  });

  wireGestures(scroller, {
    onTap: (element) => togglePause(element),
    onDoubleTap: (element) => { burstHeart(element); like(element, true); },
    onHold: (element, on) => playback.hold(on),
  });
  const keyActions = {
    next: goNext,
    previous: () => pager.goTo(pager.step(-1)),
    left: () => stepCarousel(currentEntry()?.element, -1),
    right: () => stepCarousel(currentEntry()?.element, 1),
    togglePause: () => togglePause(),
    toggleMute: () => playback.toggleMute(),
    like: () => { const element = currentEntry()?.element; if (element) like(element); },
    fullscreen: toggleFullscreen,
    captions: () => {
      const entry = currentEntry();
      if (entry?.element.querySelector('[data-action="captions"]')) captions.cycle(entry.element, entry.item);
    },
    help: toggleHelp,
  };
  let unwireKeys = wireKeyboard(keyActions);
  let active = true;
  wireMediaSession({
    play: () => { if (playback.userPaused) togglePause(); },
    pause: () => { if (!playback.userPaused) togglePause(); },
    next: goNext,
    previous: () => pager.goTo(pager.step(-1)),
  });
  const onVisibility = () => playback.update();
  document.addEventListener('visibilitychange', onVisibility);

  loadMore();

  return {
    /**
     * Another screen of the app is shown over the feed (false) or the feed is back (true):
     * it is hidden, not stopped, so it keeps its position, its pages and its three players;
     * meanwhile nothing plays and its keys are not listened to.
     */
    setActive(on) {
      if (on === active || stopped) return;
      active = on;
      if (!on) menus.close({ refocus: false });
      watch.setWatching(on);
      playback.suspend(!on);
      if (on) unwireKeys = wireKeyboard(keyActions);
      else unwireKeys();
    },
    /** The network is back: fetch the page that failed, reload videos that failed to load. */
    retry() {
      if (pageFailed || source.items.length === 0) loadMore();
      for (const { element } of entries) {
        if (element.classList.contains('failed') && RETRIED_WHEN_BACK.has(element.dataset.errorCode)) {
          retryEntry(element, { force: false });
        }
      }
    },
    stop() {
      stopped = true;
      stopPreparing?.();
      watch.stop();
      menus.destroy();
      unwireKeys();
      document.removeEventListener('visibilitychange', onVisibility);
      playback.stop();
      pool.destroy();
      pager.clear();
      renderState(stateBox, null);
      scroller.replaceWith(scroller.cloneNode(false)); // drops every listener wired above
    },
  };
}
