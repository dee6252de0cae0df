// The full-screen story player: `openStories(username, { api, playback, store, people, ... })` → `{ close() }`.
// One person at a time, their items oldest first from the first unseen one; each item's
// segment fills with the time it was really on screen (story-timer.js); at its end the next
// item plays, after a person's last item the next person in tray order. Gestures
// (gestures.js), keys ← → Space Esc, sound (sound.js), like, seen marks (seen-queue.js) and
// the look-ahead (preload.js: the next item and the next person's first item).
import { useStylesheet, revealWhenStyled } from '../ui/dom.js';
import { showToast } from '../ui/toast.js';
import { saveChange } from '../state/saves-in-order.js';
import { storiesApiFrom } from './stories-api.js';
import { pageSeenQueue } from './seen-queue.js';
import { createProgress } from './progress.js';
import { createStoryTimer } from './story-timer.js';
import { wireStoryGestures } from './gestures.js';
import { createMediaDeck } from './preload.js';
import { createPeopleList } from './people.js';
import { createStoryRefresher } from './media-refresh.js';
import { storiesSoundOn, setStoriesSound } from './sound.js';
import { buildPlayerView, trapFocus, restoreFocus, ago } from './player-view.js';
import { attachOwnerBar, dropItem } from './owner-bar.js';

let openPlayer = null;

function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * `people`: usernames in tray order (the tray passes what it has loaded, `cursor` its next page);
 * without them the tray is fetched. `onPersonChange(user)` follows the person on screen (the
 * URL), `onClose()` runs once after the player closed. `playback`: the page's playback service
 * (the videos play in a lease of its elements, preload.js); `store`: the app's state store (its
 * `storiesChanged` goes up when an item was deleted and when the player closed, after its seen
 * marks were sent: trays reload; on `storiesBackOnline` it shows again what failed to load).
 */
export function openStories(username, { api, playback, store, people = null, cursor = null, onPersonChange = () => {}, onClose = () => {} } = {}) {
  const styled = useStylesheet('/css/stories.css');
  openPlayer?.close();
  const stories = storiesApiFrom(api);
  const view = buildPlayerView();
  const progress = createProgress(view.progress);
  const refresher = createStoryRefresher(stories);
  const deck = createMediaDeck({
    playback, refreshItem: (item) => refresher.refresh(item),
    // A screen opened over the stories took the element of the item on screen: show it again
    // (another element, or the message that none is free), and never touch that element again.
    onLost: (ids) => {
      if (closed || !ids.includes(currentItem()?.id)) return;
      if (shown?.element instanceof HTMLVideoElement) shown = null;
      showItem(itemIndex);
    },
  });
  const order = createPeopleList(stories, { people, cursor, start: username });
  const pages = new Map();   // username → Promise<page>
  const seen = pageSeenQueue((ids) => stories.seen(ids));
  let sound = storiesSoundOn();
  let person = null;          // { user, index, page }
  let itemIndex = 0;
  let timer = null;
  let shown = null;           // { item, element } on screen
  let token = 0;              // bumps on every item change: late continuations give up
  let userPaused = false;
  let closed = false;
  const cleanups = [];

  // Focus goes back where it was (the tray's ring) once the screen behind is shown again.
  const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  revealWhenStyled(view.dialog, styled);
  document.body.append(view.dialog);
  view.dialog.showModal();
  view.setSound(sound);
  // Focus on the stage itself, so Space pauses instead of pressing a button.
  view.stage.focus({ preventScroll: true });
  cleanups.push(trapFocus(view.dialog));
  const owner = attachOwnerBar(view, {
    pause: (on) => (on ? timer?.pause('owner') : timer?.resume('owner')),
    onDeleted: (id) => { store.bump('storiesChanged'); const at = dropItem(person.page, id); if (at >= 0) showItem(at); else close(); },
  });
  cleanups.push(() => owner.destroy());

  function pageOf(user) {
    let promise = pages.get(user);
    if (!promise) {
      promise = stories.person(user).then((page) => {
        refresher.remember(user, page.items);
        return page;
      });
      promise.catch(() => pages.delete(user));
      pages.set(user, promise);
    }
    return promise;
  }

  const currentItem = () => person?.page.items[itemIndex] ?? null;

  // ---- one item on screen --------------------------------------------------------------

  function stopItem() {
    token += 1;
    timer?.destroy();
    timer = null;
    if (shown?.element instanceof HTMLVideoElement) shown.element.pause();
    view.setBuffering(false);
    view.message.hidden = true;
    delete view.dialog.dataset.started;
  }

  function renderChrome(item) {
    view.name.textContent = person.page.user;
    view.when.textContent = ago(item.posted_at);
    view.when.dateTime = item.posted_at ?? '';
    const avatar = person.page.items.at(-1)?.media?.thumbnail?.url;
    view.avatar.hidden = !avatar;
    if (avatar) view.avatar.src = avatar;
    view.caption.textContent = item.caption ?? '';
    view.caption.hidden = !item.caption;
    view.setCredit(item.attribution ?? null);
    view.setLiked(Boolean(item.liked));
    view.likeButton.hidden = Boolean(person.page.is_me);
    owner.show(item, Boolean(person.page.is_me));
    view.stage.dataset.itemId = String(item.id);
    view.stage.dataset.kind = item.kind;
    view.stage.dataset.shape = item.height > item.width ? 'portrait' : 'wide';
    view.dialog.dataset.user = person.page.user;
    view.dialog.dataset.item = String(itemIndex);
    view.live.textContent = `${person.page.user}, story ${itemIndex + 1} of ${person.page.items.length}`;
  }

  function place(element) {
    if (shown?.element !== element) view.media.replaceChildren(element);
    shown = { element };
  }

  function startTimer(item, video, mine) {
    timer = createStoryTimer({
      kind: item.kind, duration: item.duration, video,
      onProgress: (value) => { if (mine === token) progress.update(itemIndex, value); },
      onStart: () => {
        if (mine !== token) return;
        view.setBuffering(false);
        view.dialog.dataset.started = 'true';
        if (!item.seen) { item.seen = true; seen.mark(item.id); }
      },
      onEnd: () => { if (mine === token) next(); },
      onBuffering: (on) => { if (mine === token) view.setBuffering(on); },
    });
    if (userPaused) timer.pause('user');
    if (owner.busy) timer.pause('owner');
    if (document.visibilityState === 'hidden') timer.pause('hidden');
  }

  async function showItem(index) {
    stopItem();
    const mine = token;
    itemIndex = index;
    const item = currentItem();
    if (!item) return;
    progress.render(person.page.items.length, index);
    renderChrome(item);
    view.setBuffering(true);
    try {
      if (item.kind === 'photo') {
        const image = await deck.photo(item);
        if (mine !== token) return;
        place(image);
        startTimer(item, null, mine);
        timer.photoShown();
      } else {
        // The other player may already hold the item after this one: leave it be.
        const slot = await deck.video(item, { keep: person.page.items[index + 1]?.id ?? null });
        if (mine !== token) return;
        if (!slot) throw new Error('No player is free right now.');
        const { video } = slot;
        video.muted = !sound;
        // Coming back to a video starts it over (Zuck.js #126). A player that still holds it is
        // sent back before its bar is drawn, so the bar never shows where it was left, nor steps
        // back to 0 later under a pause; one still loading is sent back once it has loaded.
        const heldAlready = video.readyState >= HTMLMediaElement.HAVE_METADATA;
        if (heldAlready) video.currentTime = 0;
        place(video);
        startTimer(item, video, mine);
        await slot.loaded;
        if (mine !== token) return;
        if (!heldAlready) video.currentTime = 0;
        if (!timer.paused) play(video);
      }
    } catch (error) {
      if (mine !== token || closed) return;
      view.setBuffering(false);
      view.message.textContent = error?.message ? `This story can't be shown: ${error.message}` : "This story can't be shown.";
      view.message.hidden = false;
      return;
    }
    preloadAhead(mine);
  }

  function play(video) {
    video.play().catch((error) => {
      if (error?.name === 'NotAllowedError' && !video.muted) {
        video.muted = true;
        sound = false;
        view.setSound(false);
        video.play().catch(() => {});
      }
    });
  }

  /** The item after the current one, and the one after the person ends (for the look-ahead). */
  async function upcomingItems() {
    const items = person.page.items;
    const nextUser = await order.after(person.index).catch(() => null);
    let firstOfNext = null;
    if (nextUser) {
      const page = await pageOf(nextUser).catch(() => null);
      firstOfNext = page ? page.items[page.first_unseen] ?? page.items[0] ?? null : null;
    }
    return itemIndex + 1 < items.length ? { next: items[itemIndex + 1], later: firstOfNext } : { next: firstOfNext, later: null };
  }

  async function preloadAhead(mine) {
    const { next: ahead, later } = await upcomingItems();
    if (mine !== token || closed) return;
    deck.preload(ahead, later, { current: currentItem()?.id ?? null });
  }

  // ---- moving ----------------------------------------------------------------------------

  async function showPerson(user, { direction = 0, at = null } = {}) {
    stopItem();
    const mine = token;
    view.setBuffering(true);
    let page;
    try {
      page = await pageOf(user);
    } catch (error) {
      if (mine !== token || closed) return;
      // Gone meanwhile (expired, deleted): the next person, or close at the end.
      if (error?.status === 404 && direction >= 0) {
        const following = await order.after(order.indexOf(user));
        if (following) { showPerson(following, { direction }); return; }
      }
      if (error?.status === 404) { close(); return; }
      view.setBuffering(false);
      view.message.textContent = error?.message ?? "These stories couldn't be loaded.";
      view.message.hidden = false;
      return;
    }
    if (mine !== token || closed) return;
    if (!page.items.length) { close(); return; }
    person = { user, index: order.indexOf(user), page };
    onPersonChange(user);
    turn(direction);
    const start = at === 'last' ? page.items.length - 1 : at ?? (page.items[page.first_unseen] ? page.first_unseen : 0);
    showItem(start);
  }

  /** The cube turn (or a slide) between people; none under reduced motion. */
  function turn(direction) {
    view.frame.classList.remove('turn-next', 'turn-prev');
    if (!direction || reducedMotion()) return;
    void view.frame.offsetWidth;
    view.frame.classList.add(direction > 0 ? 'turn-next' : 'turn-prev');
  }
  view.frame.addEventListener('animationend', () => view.frame.classList.remove('turn-next', 'turn-prev'));

  async function nextPerson() {
    if (!person) return;
    const user = await order.after(person.index);
    if (closed) return;
    if (user) showPerson(user, { direction: 1 });
    else close();
  }

  function previousPerson() {
    if (!person) return;
    const user = order.at(person.index - 1);
    if (user) showPerson(user, { direction: -1 });
    else showItem(0);
  }

  function next() {
    if (!person) return;
    if (itemIndex + 1 < person.page.items.length) showItem(itemIndex + 1);
    else nextPerson();
  }

  function previous() {
    if (!person) return;
    if (itemIndex > 0) showItem(itemIndex - 1);
    else previousPerson();
  }

  function setUserPaused(on) {
    userPaused = on;
    view.setPaused(on);
    if (on) timer?.pause('user');
    else timer?.resume('user');
  }

  function hold(on) {
    view.dialog.classList.toggle('holding', on);
    if (on) timer?.pause('hold');
    else timer?.resume('hold');
  }

  function toggleSound() {
    sound = !sound;
    setStoriesSound(sound);
    view.setSound(sound);
    if (shown?.element instanceof HTMLVideoElement) shown.element.muted = !sound;
  }

  /** Shown at once; a refusal shows what the server has, with the taps still in flight on top
   * (state/saves-in-order.js): two refused taps on the heart end where they began. */
  function setLiked(liked) {
    const item = currentItem();
    if (!item || person.page.is_me || Boolean(item.liked) === liked) return undefined;
    item.liked = liked;
    view.setLiked(liked);
    return saveChange(item.id, { before: { liked: !liked }, change: { liked } }, stories.like(item.id, liked), () => {}, (error, was) => {
      item.liked = was.liked;
      if (currentItem() === item) view.setLiked(was.liked);
      showToast(error?.message ?? "Couldn't save the like.", { kind: 'error' });
    });
  }

  // ---- wiring ----------------------------------------------------------------------------

  const listen = (target, name, handler, options) => {
    target.addEventListener(name, handler, options);
    cleanups.push(() => target.removeEventListener(name, handler, options));
  };
  cleanups.push(wireStoryGestures(view.stage, {
    onTap: (zone) => (zone === 'back' ? previous() : next()),
    onDoubleTap: () => { view.burstHeart(); setLiked(true); },
    onHold: hold,
    onSwipe: (direction) => {
      if (direction === 'left') nextPerson();
      else if (direction === 'right') previousPerson();
      else close();
    },
    onDrag: (dx, dy, { done } = {}) => {
      // The stage follows a downward drag a little, so closing feels attached to the finger.
      view.stage.style.transform = done || reducedMotion() || dy <= 0 || Math.abs(dx) > dy ? '' : `translateY(${Math.min(dy, 200) / 2}px)`;
    },
  }));
  listen(view.dialog, 'cancel', (event) => { event.preventDefault(); close(); });
  // Back online (ui/stories-offline.js): show again what failed to load.
  cleanups.push(store.subscribe('storiesBackOnline', () => { if (!view.message.hidden) (person ? showItem(itemIndex) : showPerson(username)); }));
  // On the document: the dialog is modal, and focus may have fallen back to <body>.
  listen(document, 'keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowRight') { event.preventDefault(); next(); }
    else if (event.key === 'ArrowLeft') { event.preventDefault(); previous(); }
    else if (event.key === ' ' && !event.target.closest?.('button')) { event.preventDefault(); setUserPaused(!userPaused); }
    else if (event.key === 'Escape') { event.preventDefault(); close(); }
  });
  listen(view.closeButton, 'click', () => close());
  listen(view.soundButton, 'click', toggleSound);
  listen(view.pauseButton, 'click', () => setUserPaused(!userPaused));
  listen(view.likeButton, 'click', () => { const item = currentItem(); if (item) setLiked(!item.liked); });
  listen(view.previousPerson, 'click', previousPerson);
  listen(view.nextPerson, 'click', nextPerson);
  listen(document, 'visibilitychange', () => {
    if (document.visibilityState === 'hidden') timer?.pause('hidden');
    else timer?.resume('hidden');
  });

  function close({ silent = false } = {}) {
    if (closed) return;
    closed = true;
    stopItem();
    cleanups.forEach((off) => off());
    deck.release();
    view.dialog.close();
    view.dialog.remove();
    if (openPlayer === player) openPlayer = null;
    seen.flush().finally(() => store.bump('storiesChanged'));
    if (!silent) onClose();
    restoreFocus(opener);
  }

  const player = {
    close,
    /** For the tests and the bench: what is on screen. */
    get state() { return { user: person?.user ?? null, index: itemIndex, started: Boolean(timer?.started), videos: deck.videos.length }; },
  };
  openPlayer = player;
  pageOf(username).catch(() => {});   // asked at once, alongside the tray's order
  order.ready().then(() => { if (!closed) showPerson(username); });
  return player;
}
