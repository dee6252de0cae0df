// Signing out ends the server session (the cookie is cleared by the response).
import { api } from '../api.js';

export async function logout() {
  try { await api.logout(); } catch (error) { if (!error.isUnauthorized) throw error; }
}
