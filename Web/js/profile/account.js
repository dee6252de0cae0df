// Who you are, sign out, and change password.
import { h } from '../ui/dom.js';
import { profileApi } from './profile-api.js';
import { logout } from '../auth/logout.js';

export function accountSection(user) {
  const signOut = h('button', { type: 'button', 'data-action': 'logout' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    signOut.disabled = true;
    try { await logout(); location.assign('/'); } catch { signOut.disabled = false; }
  });
  return h('section', { class: 'profile-card', 'aria-labelledby': 'profile-who' },
    h('h2', { id: 'profile-who' }, 'Account'),
    h('p', { class: 'profile-identity' }, 'Signed in as ', h('strong', { class: 'profile-name' }, user?.name ?? '…'),
      user?.role ? h('span', { class: 'profile-role' }, ` (${user.role})`) : null),
    signOut);
}

export function passwordSection() {
  const current = h('input', { type: 'password', name: 'current-password', autocomplete: 'current-password', required: true });
  const next = h('input', { type: 'password', name: 'new-password', autocomplete: 'new-password', required: true, minlength: 8 });
  const again = h('input', { type: 'password', name: 'confirm-password', autocomplete: 'new-password', required: true, minlength: 8 });
  const status = h('p', { class: 'profile-status', role: 'status' });
  const form = h('form', { class: 'profile-form', 'aria-label': 'Change password' },
    h('label', {}, 'Current password', current),
    h('label', {}, 'New password (8 characters or more)', next),
    h('label', {}, 'New password again', again),
    status,
    h('button', { type: 'submit' }, 'Change password'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (next.value !== again.value) { status.textContent = 'The new passwords differ.'; return; }
    try {
      await profileApi.changePassword(current.value, next.value);
      form.reset();
      status.textContent = 'Password changed. Your other sessions were signed out.';
    } catch (error) {
      status.textContent = error?.status === 403 ? 'The current password is wrong.' : (error?.message ?? "Couldn't change it.");
    }
  });
  return h('section', { class: 'profile-card', 'aria-labelledby': 'profile-password' },
    h('h2', { id: 'profile-password' }, 'Password'), form);
}
