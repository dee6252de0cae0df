// The sign-in form: POST /api/v1/session sets the HttpOnly session cookie.
import { api } from '../api.js';

const MESSAGES = {
  401: 'Wrong username or password.',
  429: 'Too many attempts. Wait a few minutes and try again.',
};

export function showLogin({ onSignedIn }) {
  const view = document.getElementById('login-view');
  const form = document.getElementById('login-form');
  const error = document.getElementById('login-error');
  view.hidden = false;
  error.hidden = true;
  form.reset();
  form.elements.username.focus();

  form.onsubmit = async (event) => {
    event.preventDefault();
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    error.hidden = true;
    try {
      await api.login(form.elements.username.value.trim(), form.elements.password.value);
      form.reset();
      view.hidden = true;
      onSignedIn();
    } catch (failure) {
      error.textContent = failure.isOffline ? 'The server could not be reached.' : (MESSAGES[failure.status] ?? failure.message);
      error.hidden = false;
      form.elements.password.select();
    } finally {
      submit.disabled = false;
    }
  };
}

export function hideLogin() {
  document.getElementById('login-view').hidden = true;
}
