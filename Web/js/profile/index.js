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
    // The password right under who you are: a new owner is told at first start to change the
    // printed one "under Profile", and should not have to scroll past everything else for it.
    screen.append(
      accountSection(user), passwordSection(), storiesSection(), historySection({ openDetail: ctx.openDetail }),
      notInterestedSection({ openDetail: ctx.openDetail }), hiddenUploadersSection(), librariesSection({ store: ctx.store }), preferencesSection(), keysSection(), aboutSection());
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
