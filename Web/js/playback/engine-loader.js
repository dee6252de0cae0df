// Loads the player engine (js/player/) for the playback service, once per page. If it cannot
// be loaded the feed still works for images and posters, and each video says why it cannot play.

function unavailableEngine(reason) {
  return {
    attach() {
      const handlers = {};
      return {
        itemId: null,
        load(item) {
          this.itemId = item.id;
          return Promise.reject(Object.assign(new Error(reason), { code: 'unsupported' }));
        },
        unload() { this.itemId = null; },
        on(name, handler) { handlers[name] = handler; },
      };
    },
    detach(player) { player.unload(); },
    focus() {},
    prefetch() {},
    stats: () => ({}),
  };
}

export async function loadEngine(options) {
  try {
    const { createEngine } = await import('../player/index.js');
    return createEngine(options);
  } catch (error) {
    console.error('player engine unavailable', error);
    return unavailableEngine('The video player could not be loaded.');
  }
}
