// Which library a listing shows, once the person may see several: a link beside the screen's
// title ("Library: Travel", "All libraries") to Profile, where the choice is made. With one
// library there is nothing to choose and nothing is shown.
import { currentLibrary } from '../state/library.js';

/** `{ element, destroy }`: the link, kept up to date with the app store's `library`. */
export function libraryScope(ctx) {
  const link = document.createElement('a');
  link.className = 'header-link library-scope';
  link.href = '/profile#libraries';
  link.hidden = true;
  let asked = 0;

  async function paint() {
    const turn = ++asked;
    const libraries = await ctx.api.libraries().then((answer) => answer.libraries ?? [], () => []);
    if (turn !== asked) return;
    const chosen = libraries.find((library) => String(library.id) === String(currentLibrary()));
    link.hidden = libraries.length < 2;
    link.textContent = chosen ? `Library: ${chosen.name}` : 'All libraries';
    link.setAttribute('aria-label', `${link.textContent}. Change it in Profile`);
  }

  paint();
  const unwatch = ctx.store.subscribe('library', paint);
  return { element: link, destroy: unwatch };
}
