// Exactly three <video> elements, created once and recycled: each is moved into the item it is
// assigned to (so the on-screen item contains its video) and loaded through the engine. Only
// the current item's video may play or make sound; the others sit paused and muted, warm.

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
    const slot = { video, player: engine.attach(video), itemId: null, ready: false, generation: 0, error: null };
    slot.player.on?.('error', (error) => {
      const target = slot.itemId === null ? null : lookup(slot.itemId);
      if (target) onError(slot, target, error);
    });
    return slot;
  });

  function release(slot) {
    slot.generation += 1;
    slot.video.pause();
    slot.video.muted = true;
    slot.player.unload();
    slot.video.classList.remove('ready');
    slot.ready = false;
    slot.error = null;
    slot.itemId = null;
  }

  function load(slot, id) {
    const target = lookup(id);
    if (!target) { park.append(slot.video); return; }
    const { item, element } = target;
    slot.itemId = id;
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
    /** Current assignment as item ids (null = idle), in slot order. */
    assignment: () => slots.map((slot) => slot.itemId),

    /** Applies a plan from planPool: players whose item changes are unloaded and reloaded. */
    apply(plan) {
      plan.forEach((id, index) => {
        const slot = slots[index];
        if (slot.itemId === id) return;
        if (slot.itemId !== null || slot.generation > 0) release(slot);
        if (id === null) park.append(slot.video);
        else load(slot, id);
      });
    },

    /** Loads the item again in its player (the retry button). */
    reload(id) {
      const slot = slots.find((candidate) => candidate.itemId === id);
      if (!slot) return;
      release(slot);
      load(slot, id);
    },

    slotFor: (id) => slots.find((slot) => slot.itemId === id) ?? null,

    releaseAll() {
      slots.forEach((slot) => { release(slot); park.append(slot.video); });
    },

    destroy() {
      slots.forEach((slot) => release(slot));
      park.remove();
    },
  };
}
