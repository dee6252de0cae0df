// The row of progress segments: one per item of the person on screen; those before the current
// one are full, those after empty, the current one fills with its timer.
export function createProgress(root) {
  let fills = [];

  function set(segment, value) {
    const bar = fills[segment];
    if (!bar) return;
    bar.style.transform = `scaleX(${value})`;
    bar.parentElement.setAttribute('aria-valuenow', String(Math.round(value * 100)));
  }

  return {
    /** `count` segments, `current` the item on screen (its fill at 0). */
    render(count, current) {
      fills = [];
      root.replaceChildren(...Array.from({ length: count }, (_, index) => {
        const segment = document.createElement('div');
        segment.className = 'story-segment';
        segment.setAttribute('role', 'progressbar');
        segment.setAttribute('aria-label', `Story ${index + 1} of ${count}`);
        segment.setAttribute('aria-valuemin', '0');
        segment.setAttribute('aria-valuemax', '100');
        const fill = document.createElement('span');
        fill.className = 'story-fill';
        segment.append(fill);
        fills.push(fill);
        return segment;
      }));
      fills.forEach((_, index) => set(index, index < current ? 1 : 0));
      fills[current]?.parentElement.setAttribute('aria-current', 'step');
    },
    update(current, value) { set(current, value); },
  };
}
