// API keys for native apps and scripts: create (the secret is shown once, with a copy button),
// list, revoke (after a confirmation).
import { h, copyText } from '../ui/dom.js';
import { formatDate } from '../ui/format.js';
import { profileApi } from './profile-api.js';

export function keysSection() {
  const list = h('ul', { class: 'profile-keys', 'aria-label': 'Your API keys' });
  const status = h('p', { class: 'profile-status', role: 'status' });
  const created = h('div', { class: 'profile-secret', hidden: true });
  const name = h('input', { name: 'key-name', required: true, maxlength: 100, autocomplete: 'off', placeholder: 'e.g. iPhone app' });
  const form = h('form', { class: 'profile-row', 'aria-label': 'Create an API key' },
    h('label', {}, 'Name ', name), h('button', { type: 'submit' }, 'Create key'));

  function row(key) {
    const revoke = h('button', { type: 'button', class: 'danger', 'data-action': 'revoke' }, 'Revoke');
    const item = h('li', { 'data-key-id': String(key.id) },
      h('span', { class: 'profile-key-name' }, key.name),
      h('code', {}, `${key.prefix}…`),
      h('span', { class: 'profile-muted' }, `created ${formatDate(key.created_at)} · ${key.last_used_at ? `last used ${formatDate(key.last_used_at)}` : 'never used'}`),
      revoke);
    revoke.addEventListener('click', () => {
      const confirm = h('span', { class: 'profile-confirm', role: 'group', 'aria-label': `Revoke ${key.name}?` },
        `Revoke “${key.name}”? Apps using it stop working. `,
        h('button', { type: 'button', class: 'danger', 'data-action': 'confirm-revoke', onclick: async () => {
          try {
            await profileApi.revokeKey(key.id);
            item.remove();
            status.textContent = `Revoked “${key.name}”.`;
            if (!list.children.length) list.append(h('li', { class: 'profile-muted' }, 'No keys yet.'));
          } catch (error) { status.textContent = error?.message ?? "Couldn't revoke it."; }
        } }, 'Revoke'),
        h('button', { type: 'button', onclick: () => { confirm.remove(); revoke.hidden = false; } }, 'Cancel'));
      revoke.hidden = true;
      item.append(confirm);
      confirm.querySelector('button').focus();
    });
    return item;
  }

  async function load() {
    try {
      const keys = (await profileApi.keys()).keys ?? [];
      list.replaceChildren(...(keys.length ? keys.map(row) : [h('li', { class: 'profile-muted' }, 'No keys yet.')]));
    } catch (error) {
      list.replaceChildren(h('li', { class: 'profile-muted' }, error?.status === 404 ? 'API keys are not available on this server yet.' : (error?.message ?? "Couldn't load your keys.")));
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const wanted = name.value.trim();
    if (!wanted) return;
    try {
      const { key, secret } = await profileApi.createKey(wanted);
      name.value = '';
      const secretText = h('code', { class: 'profile-secret-value' }, secret);
      const copy = h('button', { type: 'button', 'data-action': 'copy-secret' }, 'Copy');
      copy.addEventListener('click', async () => { copy.textContent = (await copyText(secret)) ? 'Copied' : 'Select and copy it'; });
      created.replaceChildren(
        h('p', {}, h('strong', {}, `Key “${key.name}” created. `), 'Copy it now: it will not be shown again.'),
        h('div', { class: 'profile-row' }, secretText, copy),
        h('p', { class: 'profile-muted' }, 'Send it as ', h('code', {}, 'Authorization: Bearer …'), '.'),
        h('button', { type: 'button', onclick: () => { created.hidden = true; created.replaceChildren(); } }, 'Done'));
      created.hidden = false;
      list.querySelector('li.profile-muted')?.remove();
      list.prepend(row(key));
      copy.focus();
    } catch (error) {
      status.textContent = error?.message ?? "Couldn't create the key.";
    }
  });

  load();
  return h('section', { class: 'profile-card', 'aria-labelledby': 'profile-keys-title' },
    h('h2', { id: 'profile-keys-title' }, 'API keys'),
    h('p', { class: 'profile-muted' }, 'For native apps and scripts. A key acts as you.'),
    form, created, status, list);
}
