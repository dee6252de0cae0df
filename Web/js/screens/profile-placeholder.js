// Stand-in for Profile (webdetail's js/profile/ replaces this module): who you are, the
// library the app shows (state/library.js), and signing out.
import { currentLibrary, setLibrary } from '../state/library.js';
import { screenHeader } from './screen-parts.js';

export function renderProfile(root, ctx) {
  const who = document.createElement('p');
  who.textContent = `Signed in as ${ctx.user?.name ?? '…'}`;
  const label = document.createElement('label');
  label.className = 'library-field';
  label.append('Library ');
  const select = document.createElement('select');
  select.name = 'library';
  select.append(new Option('Every library', ''));
  label.append(select);
  select.addEventListener('change', () => setLibrary(select.value || null));
  ctx.api.libraries().then(({ libraries = [] }) => {
    for (const library of libraries) select.append(new Option(library.name, String(library.id)));
    select.value = String(currentLibrary() ?? '');
  }, () => { label.hidden = true; });
  const signOut = document.createElement('button');
  signOut.type = 'button';
  signOut.textContent = 'Sign out';
  signOut.addEventListener('click', () => window.dispatchEvent(new CustomEvent('reelhouse:sign-out')));
  const body = document.createElement('div');
  body.className = 'profile-body';
  body.append(who, label, signOut);
  root.replaceChildren(screenHeader('Profile'), body);
  return { destroy() {} };
}
