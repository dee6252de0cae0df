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
 * (the toast goes at once). `takeFocus`: the Undo button gets the focus (the control that had
 * it is gone); `returnFocus()` is called if the toast still holds the focus when it goes.
 */
export function showUndoToast(message, onUndo, { timeout = 8000, takeFocus = false, returnFocus = () => {} } = {}) {
  region ??= document.getElementById('toasts');
  const toast = document.createElement('div');
  toast.className = 'toast toast-undo';
  toast.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = message;
  const undo = document.createElement('button');
  undo.type = 'button';
  undo.className = 'toast-action';
  undo.textContent = 'Undo';
  toast.append(text, undo);
  region.append(toast);
  const timer = setTimeout(() => {
    const hadFocus = toast.contains(document.activeElement);
    toast.remove();
    if (hadFocus) returnFocus();
  }, timeout);
  undo.addEventListener('click', () => { clearTimeout(timer); toast.remove(); onUndo(); }, { once: true });
  if (takeFocus) undo.focus({ preventScroll: true });
  return toast;
}
