// Exactly three <video> elements, created once and recycled: each is moved into the item it is
// assigned to (so the on-screen item contains its video) and loaded through the engine. Only
// the current item's video may play or make sound; the others sit paused and muted, warm.
// Items are named by their feed position (`key`), not their API id: after the endless feed
// wraps, one post can appear twice, and each copy is its own place for a player.

export function createPlayerPool({ engine, size = 3, lookup, onReady, onError }) {
  const park = document.createElement('div');
  park.hidden = true;
  park.className = 'video-park';
  document.body.append(park);

  const slots = Array.from({ length: size }, (_, index) => {
    const video = document.createElement('video');
    video.className = 'player';
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    video.setAttribute('playsinline', '');
    video.preload = 'auto';
    video.disablePictureInPicture = false;
    video.dataset.slot = String(index);
    park.append(video);
    const slot = { video, player: engine.attach(video), key: null, ready: false, generation: 0, error: null };
    slot.player.on?.('error', (error) => {
      const target = slot.key === null ? null : lookup(slot.key);
      if (target) onError(slot, target, error);
    });
    return slot;
  });

  const slotFor = (key) => slots.find((slot) => slot.key === key) ?? null;

  function release(slot) {
    // A load cut short leaves its item's spinner behind otherwise.
    if (slot.key !== null) lookup(slot.key)?.element.classList.remove('loading');
    slot.generation += 1;
    slot.video.pause();
    slot.video.muted = true;
    slot.player.unload();
    slot.video.classList.remove('ready');
    slot.ready = false;
    slot.error = null;
    slot.key = null;
  }

  function load(slot, key) {
    const target = lookup(key);
    if (!target) { park.append(slot.video); return; }
    const { item, element } = target;
    slot.key = key;
    const generation = slot.generation;
    const stage = element.querySelector('.stage');
    stage.insertBefore(slot.video, stage.querySelector('.poster')?.nextSibling ?? stage.firstChild);
    element.classList.add('loading');
    slot.player.load(item).then(() => {
      if (generation !== slot.generation) return;
      slot.ready = true;
      slot.video.classList.add('ready');
      element.classList.remove('loading');
      onReady(slot, target);
    }, (error) => {
      if (generation !== slot.generation || error?.code === 'aborted') return;
      element.classList.remove('loading');
      slot.error = error;
      onError(slot, target, error);
    });
  }

  return {
    slots,
    /** Current assignment as feed positions (null = idle), in slot order. */
    assignment: () => slots.map((slot) => slot.key),

    /** Applies a plan from planPool: players whose item changes are unloaded and reloaded. */
    apply(plan) {
      plan.forEach((key, index) => {
        const slot = slots[index];
        if (slot.key === key) return;
        if (slot.key !== null || slot.generation > 0) release(slot);
        if (key === null) park.append(slot.video);
        else load(slot, key);
      });
    },

    /** Loads the item again in its player (the retry button). */
    reload(key) {
      const slot = slotFor(key);
      if (!slot) return;
      release(slot);
      load(slot, key);
    },

    slotFor,

    /** Tells the engine which player is on screen (`key` null: none), so it downloads first. */
    focus(key) {
      engine.focus(key === null ? null : slotFor(key)?.player ?? null);
    },

    releaseAll() {
      slots.forEach((slot) => { release(slot); park.append(slot.video); });
    },

    destroy() {
      engine.focus(null);
      slots.forEach((slot) => { release(slot); engine.detach(slot.player); });
      park.remove();
    },
  };
}
