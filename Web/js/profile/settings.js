// Preferences (start muted, data saver, autoplay next), the library switcher and About.
import { h } from '../ui/dom.js';
import { profileApi } from './profile-api.js';
import { currentLibrary, setLibrary } from '../state/library.js';
import { rememberedMuted, rememberMuted, dataSaverOn, setDataSaver, autoplayNextOn, setAutoplayNext } from '../ui/preferences.js';

function toggle(name, label, hint, checked, onChange) {
  const input = h('input', { type: 'checkbox', name, checked });
  input.addEventListener('change', () => onChange(input.checked));
  return h('label', { class: 'profile-toggle' }, input, h('span', {}, h('strong', {}, label), h('small', {}, hint)));
}

export function preferencesSection() {
  return h('section', { class: 'profile-card', 'aria-labelledby': 'profile-prefs' },
    h('h2', { id: 'profile-prefs' }, 'Preferences'),
    toggle('start-muted', 'Start muted', 'Videos start without sound until you turn it on.', rememberedMuted(), rememberMuted),
    toggle('data-saver', 'Data saver', 'Always play the lowest quality.', dataSaverOn(), setDataSaver),
    toggle('autoplay-next', 'Autoplay next', 'Move on to the next post when a video ends.', autoplayNextOn(), setAutoplayNext));
}

/** `store`: the app's state store; a choice made here is its `library` (state/library.js). */
export function librariesSection({ store }) {
  const list = h('div', { class: 'profile-libraries', role: 'radiogroup', 'aria-labelledby': 'profile-libraries-title' },
    h('p', { class: 'profile-muted' }, 'Loading…'));
  const status = h('p', { class: 'profile-status', role: 'status' });
  profileApi.libraries().then((answer) => {
    const libraries = answer.libraries ?? [];
    const current = currentLibrary();
    const option = (id, name, count) => {
      const input = h('input', { type: 'radio', name: 'library', value: id === null ? '' : String(id), checked: current === id });
      input.addEventListener('change', () => {
        setLibrary(store, id);
        status.textContent = `Showing ${name}.`;
      });
      return h('label', { class: 'profile-library' }, input, h('span', {}, name), count === null ? null : h('small', {}, ` ${count} post${count === 1 ? '' : 's'}`));
    };
    list.replaceChildren(option(null, 'All my libraries', null), ...libraries.map((library) => option(library.id, library.name, library.post_count ?? null)));
  }, (error) => {
    list.replaceChildren(h('p', { class: 'profile-muted' }, error?.status === 404 ? 'This server has one library.' : (error?.message ?? "Couldn't load the libraries.")));
  });
  return h('section', { class: 'profile-card', id: 'libraries', 'aria-labelledby': 'profile-libraries-title' },
    h('h2', { id: 'profile-libraries-title' }, 'Library'),
    h('p', { class: 'profile-muted' }, 'Feed, Discover, Browse and Search show the library chosen here.'),
    list, status);
}

export function aboutSection() {
  const version = h('dd', { 'data-about': 'version' }, '…');
  const health = h('dd', { 'data-about': 'health' }, '…');
  profileApi.openapi().then((document) => { version.textContent = `${document.info?.title ?? 'Reelhouse API'} ${document.info?.version ?? ''}`.trim(); },
    () => { version.textContent = 'unknown'; });
  profileApi.health().then((answer) => { health.textContent = answer?.status === 'ok' ? 'Up' : String(answer?.status ?? 'unknown'); },
    (error) => { health.textContent = error?.isOffline ? 'Unreachable' : 'Not answering'; });
  return h('section', { class: 'profile-card', 'aria-labelledby': 'profile-about' },
    h('h2', { id: 'profile-about' }, 'About'),
    h('dl', { class: 'profile-facts' },
      h('dt', {}, 'Server'), h('dd', { 'data-about': 'server' }, location.origin),
      h('dt', {}, 'Status'), health,
      h('dt', {}, 'Version'), version,
      h('dt', {}, 'Client'), h('dd', {}, 'Reelhouse web')));
}
