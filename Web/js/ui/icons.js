// Inline SVG icons (currentColor), so the shell needs no icon font or extra requests.

const paths = {
  heart: 'M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.5 1.1 4.4 2.5.9-1.4 2.3-2.5 4.4-2.5 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z',
  star: 'M12 2.8l2.8 5.9 6.4.8-4.7 4.4 1.2 6.4L12 17.2l-5.7 3.1 1.2-6.4-4.7-4.4 6.4-.8z',
  info: 'M12 2a10 10 0 100 20 10 10 0 000-20zm1 15h-2v-6h2zm0-8h-2V7h2z',
  pip: 'M3 5h18v14H3zm2 2v10h14V7zm7 5h6v4h-6z',
  soundOff: 'M4 9h4l5-4v14l-5-4H4zm12.6 0l1.4-1.4 2 2 2-2L23.4 9l-2 2 2 2-1.4 1.4-2-2-2 2L16.6 13l2-2z',
  soundOn: 'M4 9h4l5-4v14l-5-4H4zm11.5-2.5a7 7 0 010 11l-1.4-1.4a5 5 0 000-8.2zm-2 3a3 3 0 010 5z',
  play: 'M8 5v14l11-7z',
  pause: 'M6 5h4v14H6zm8 0h4v14h-4z',
  chevronLeft: 'M15.4 7.4L14 6l-6 6 6 6 1.4-1.4L10.8 12z',
  chevronRight: 'M8.6 7.4L10 6l6 6-6 6-1.4-1.4 4.6-4.6z',
};

export function icon(name, className = 'icon') {
  return `<svg class="${className}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${paths[name]}"/></svg>`;
}
