// Recent searches (GET/POST/DELETE /api/v1/me/searches) and the query hints, shown while the
// search field is empty. A search is recorded when the person opens one of its results.

const HINTS = [
  { text: 'tag:', example: 'tag:cats', help: 'posts with a tag' },
  { text: '@', example: '@uploader', help: 'posts by someone' },
  { text: '-tag:', example: '-tag:x', help: 'leave a tag out' },
];

export function createRecentSearches({ api, onPick, onHint }) {
  const section = document.createElement('section');
  section.className = 'search-aside';
  const recentBlock = document.createElement('div');
  recentBlock.className = 'recent-searches';
  const hints = document.createElement('div');
  hints.className = 'search-hints';
  const hintTitle = document.createElement('h2');
  hintTitle.textContent = 'Try';
  const hintList = document.createElement('ul');
  for (const hint of HINTS) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'hint-chip';
    const code = document.createElement('code');
    code.textContent = hint.example;
    button.append(code, ` ${hint.help}`);
    button.addEventListener('click', () => onHint(hint.text));
    item.append(button);
    hintList.append(item);
  }
  hints.append(hintTitle, hintList);
  section.append(recentBlock, hints);

  function paint(searches) {
    recentBlock.replaceChildren();
    if (!searches.length) return;
    const heading = document.createElement('div');
    heading.className = 'recent-heading';
    const title = document.createElement('h2');
    title.textContent = 'Recent';
    const clear = document.createElement('button');
    clear.type = 'button';
    clear.className = 'link-button';
    clear.textContent = 'Clear';
    clear.addEventListener('click', async () => {
      try { await api.clearSearches(); paint([]); } catch { /* kept: shown again next time */ }
    });
    heading.append(title, clear);
    const list = document.createElement('ul');
    for (const search of searches) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'recent-search';
      button.textContent = search.query;
      button.addEventListener('click', () => onPick(search.query));
      item.append(button);
      list.append(item);
    }
    recentBlock.append(heading, list);
  }

  return {
    element: section,
    async refresh() {
      try { paint((await api.recentSearches()).searches ?? []); } catch { paint([]); }
    },
  };
}
