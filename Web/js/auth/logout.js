// Signing out ends the server session (the cookie is cleared by the response). The watch
// events still queued are sent first, as the person they belong to, and forgotten once the
// session is gone: nobody who signs in next sends them as their own.
import { api } from '../api.js';
import { finishEvents, forgetEvents } from '../events/index.js';

export async function logout() {
  await finishEvents();
  try { await api.logout(); } catch (error) { if (!error.isUnauthorized) throw error; }
  forgetEvents();
}
