// Upload / Record / Generate as ARIA tabs: arrow keys, Home and End move between them, and the
// location hash (#upload, #record, #generate) keeps the choice across reloads.
export function startTabs({ onEnter, onLeave }) {
  const tabs = [...document.querySelectorAll('[role=tab][data-screen]')];
  let current = null;

  const select = (screen, { focus = false } = {}) => {
    const tab = tabs.find((item) => item.dataset.screen === screen) ?? tabs[0];
    if (current === tab.dataset.screen) return;
    if (current) onLeave(current);
    current = tab.dataset.screen;
    for (const item of tabs) {
      const selected = item === tab;
      item.setAttribute('aria-selected', String(selected));
      item.tabIndex = selected ? 0 : -1;
      document.getElementById(item.getAttribute('aria-controls')).hidden = !selected;
    }
    if (focus) tab.focus();
    history.replaceState(null, '', `#${current}`);
    onEnter(current);
  };

  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab.dataset.screen));
    tab.addEventListener('keydown', (event) => {
      const index = tabs.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length].dataset.screen, { focus: true });
    });
  }
  window.addEventListener('hashchange', () => select(location.hash.slice(1)));
  select(location.hash.slice(1));
}
