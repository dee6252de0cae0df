// Short status messages in a polite live region, so screen readers announce them too.

let region = null;

export function showToast(message, { kind = 'info', timeout = 3500 } = {}) {
  region ??= document.getElementById('toasts');
  const toast = document.createElement('div');
  toast.className = `toast toast-${kind}`;
  toast.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  toast.textContent = message;
  region.append(toast);
  setTimeout(() => toast.remove(), timeout);
  return toast;
}

/**
 * A toast with an Undo button, kept longer so there is time to press it. `onUndo` runs once
 * (the toast goes at once); the returned toast can be removed early.
 */
export function showUndoToast(message, onUndo, { timeout = 8000 } = {}) {
  const toast = showToast(message, { timeout });
  toast.classList.add('toast-undo');
  const text = document.createElement('span');
  text.textContent = message;
  const undo = document.createElement('button');
  undo.type = 'button';
  undo.className = 'toast-action';
  undo.textContent = 'Undo';
  undo.addEventListener('click', () => { toast.remove(); onUndo(); }, { once: true });
  toast.replaceChildren(text, undo);
  return toast;
}
