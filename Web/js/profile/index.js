// The Profile screen: `renderProfile(root, ctx)` → `{ destroy() }` (ctx as every screen's:
// { api, navigate, store, params, query, user, openDetail }). Account, your stories, watch history,
// not interested, hidden uploaders, password, API keys, preferences, library and about, each a
// card (css/profile.css).
import { h, useStylesheet } from '../ui/dom.js';
import { profileApi } from './profile-api.js';
import { accountSection, passwordSection } from './account.js';
import { keysSection } from './keys.js';
import { preferencesSection, librariesSection, aboutSection } from './settings.js';
import { storiesSection } from './stories.js';
import { historySection } from './history.js';
import { notInterestedSection, hiddenUploadersSection } from './hidden.js';

export function renderProfile(root, ctx = {}) {
  useStylesheet('/css/profile.css');
  const screen = h('div', { class: 'profile' }, h('h1', { class: 'profile-title' }, 'Profile'));
  root.append(screen);
  let gone = false;

  function fill(user) {
    if (gone) return;
    screen.append(
      accountSection(user), storiesSection(), historySection({ openDetail: ctx.openDetail }),
      notInterestedSection({ openDetail: ctx.openDetail }), hiddenUploadersSection(), librariesSection({ store: ctx.store }), preferencesSection(), keysSection(), passwordSection(), aboutSection());
  }
  if (ctx.user) fill(ctx.user);
  else profileApi.me().then(fill, () => fill(null));

  return {
    destroy() {
      gone = true;
      screen.remove();
    },
  };
}

/** The router's screen signature (render(root, ctx)) for the same screen. */
export const render = renderProfile;
