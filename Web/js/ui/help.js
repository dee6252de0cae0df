// The keyboard shortcut sheet ("?"), a modal <dialog> so focus is trapped and Esc closes it.

export function toggleHelp() {
  const dialog = document.getElementById('help');
  if (dialog.open) dialog.close();
  else dialog.showModal();
}

export function isHelpOpen() {
  return document.getElementById('help').open;
}
