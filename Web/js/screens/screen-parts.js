// Small pieces every list screen shares: its heading, a message with a retry, and the detail
// context of a cover (what "Play in feed from here" plays).

export function screenHeader(title, { level = 'h1' } = {}) {
  const header = document.createElement('header');
  header.className = 'screen-header';
  const heading = document.createElement(level);
  heading.textContent = title;
  header.append(heading);
  return header;
}

export function messageBox(text, { onRetry } = {}) {
  const box = document.createElement('div');
  box.className = 'screen-message';
  box.setAttribute('role', 'status');
  const paragraph = document.createElement('p');
  paragraph.textContent = text;
  box.append(paragraph);
  if (onRetry) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Try again';
    button.addEventListener('click', onRetry);
    box.append(button);
  }
  return box;
}

/** Reloads the screen when the person picks another library (the store's `library`); returns the unsubscribe. */
export function onLibraryChange(store, reload) {
  return store.subscribe('library', () => reload());
}
