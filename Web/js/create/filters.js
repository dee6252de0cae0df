// The looks a recording can have. The server applies the real ffmpeg chain while it transcodes
// (VideoFilterChain.swift); these CSS filters are only the live preview's approximation.
export const FILTERS = [
  { id: 'none', label: 'None', css: 'none' },
  { id: 'mono', label: 'Mono', css: 'grayscale(1)' },
  { id: 'vivid', label: 'Vivid', css: 'saturate(1.6) contrast(1.08)' },
  { id: 'warm', label: 'Warm', css: 'sepia(.25) saturate(1.2) hue-rotate(-10deg)' },
  { id: 'cool', label: 'Cool', css: 'saturate(1.1) hue-rotate(15deg) brightness(1.03)' },
  { id: 'vintage', label: 'Vintage', css: 'sepia(.45) saturate(.75) contrast(.95)' },
];

export function filterById(id) {
  return FILTERS.find((filter) => filter.id === id) ?? FILTERS[0];
}

/**
 * A radio group of looks (arrow keys move between them, as for any radio group).
 * Calls onChange(filter) with the chosen one.
 */
export function renderFilterPicker(container, { selected = 'none', onChange }) {
  container.replaceChildren();
  for (const filter of FILTERS) {
    const label = document.createElement('label');
    label.className = 'filter-choice';
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'look';
    input.value = filter.id;
    input.checked = filter.id === selected;
    input.addEventListener('change', () => { if (input.checked) onChange(filter); });
    const swatch = document.createElement('span');
    swatch.className = 'filter-swatch';
    swatch.style.filter = filter.css;
    const name = document.createElement('span');
    name.textContent = filter.label;
    label.append(input, swatch, name);
    container.append(label);
  }
}
