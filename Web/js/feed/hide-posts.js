// "Not interested" and "Hide posts from NAME" in the feed: the event is sent at once (the
// server files the post or the uploader in the person's hidden lists), the matching items
// leave the feed window (their elements are hidden in place, so feed positions stay what
// they are), and an Undo toast brings them back: the event is withdrawn if it was not sent
// yet, else the entry is deleted through the API. Later pages are filtered the same way
// until the server's answers no longer hold them.
import { request } from '../api.js';
import { recordEvent, flushEvents, withdrawEvent } from '../events/index.js';
import { showToast, showUndoToast } from '../ui/toast.js';
import { uploaderKey } from './more-menu.js';

export const hiddenApi = {
  undoNotInterested: (postId) => request('DELETE', `/api/v1/me/not-interested/${postId}`),
  unhideUploader: (name) => request('DELETE', `/api/v1/me/hidden-uploaders/${encodeURIComponent(name)}`),
};

/**
 * `entries` is the feed's list ({ item, element, removed }); `removed(changed)` is called after
 * entries left or came back (the feed moves off a hidden current item and plans its players).
 */
export function createPostHider({ entries, changed, focusCurrent = () => {} }) {
  const rules = new Map();   // rule id → (item) => boolean, for items of later pages

  function apply(id, matches) {
    rules.set(id, matches);
    const gone = entries.filter((entry) => !entry.removed && matches(entry.item));
    for (const entry of gone) { entry.removed = true; entry.element.hidden = true; }
    changed(gone, { removed: true });
    return gone;
  }

  function restore(id, gone) {
    rules.delete(id);
    for (const entry of gone) { entry.removed = false; entry.element.hidden = false; }
    changed(gone, { removed: false });
  }

  async function undo(event, undoRequest, message) {
    try {
      if (!(await withdrawEvent(event))) await undoRequest();
      return true;
    } catch (error) {
      // 404: the server never filed it (the event was refused): nothing to undo there.
      if (error?.status === 404) return true;
      showToast(error?.isOffline ? `${message} You seem to be offline.` : (error?.message ?? message), { kind: 'error' });
      return false;
    }
  }

  function hide({ ruleId, postId, matches, type, message, undoRequest, failure }) {
    const event = recordEvent(type, postId);
    flushEvents();
    const gone = apply(ruleId, matches);
    // The ⋯ that had the focus left with its item: a keyboard user lands on Undo instead.
    const focus = document.activeElement;
    const lost = !focus || focus === document.body || Boolean(focus.closest('[hidden]'));
    showUndoToast(message, async () => {
      if (!(await undo(event, undoRequest, failure))) return;
      restore(ruleId, gone);
      if (document.activeElement === document.body) focusCurrent();   // Undo was pressed and is gone
    }, { takeFocus: lost, returnFocus: focusCurrent });
  }

  return {
    notInterested(item) {
      hide({
        ruleId: `post:${item.id}`, postId: item.id, type: 'not_interested',
        matches: (other) => other.id === item.id,
        message: "Got it: you won't see this post again.",
        undoRequest: () => hiddenApi.undoNotInterested(item.id),
        failure: "Couldn't undo that.",
      });
    },
    hideUploader(item) {
      const name = uploaderKey(item);
      if (!name) return;
      hide({
        ruleId: `uploader:${name}`, postId: item.id, type: 'hide_uploader',
        matches: (other) => uploaderKey(other) === name,
        message: `Posts from ${name} are hidden.`,
        undoRequest: () => hiddenApi.unhideUploader(name),
        failure: `Couldn't show posts from ${name} again.`,
      });
    },
    /** Whether an item of a later page is hidden by a rule made on this page. */
    hides(item) {
      for (const matches of rules.values()) if (matches(item)) return true;
      return false;
    },
  };
}
