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
