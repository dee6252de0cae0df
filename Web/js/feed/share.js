// Sharing a post from the feed: the system share sheet (phones) or a copied link, both to the
// post's own page (/p/{id}); either counts as a `share` event once it went through.
import { copyText } from '../ui/dom.js';
import { showToast } from '../ui/toast.js';
import { recordEvent } from '../events/index.js';

export const postURL = (item) => new URL(`/p/${item.id}`, location.origin).href;

export async function copyLink(item) {
  const url = postURL(item);
  const copied = await copyText(url);
  showToast(copied ? 'Link copied.' : `Copy this link: ${url}`);
  recordEvent('share', item.id);
}

export async function shareLink(item) {
  try {
    await navigator.share({ url: postURL(item), title: item.title || undefined });
    recordEvent('share', item.id);
  } catch (error) {
    if (error?.name !== 'AbortError') copyLink(item);   // no share sheet here: copy instead
  }
}
