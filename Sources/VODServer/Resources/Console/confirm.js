// A confirmation in the page's own dialog (window.confirm cannot be styled, and blocks the page).

/** Asks `question`, with `action` on the confirming button; resolves with whether it was confirmed. */
export function confirmAction(question, action) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = question;
  document.getElementById('confirm-button').textContent = action;
  dialog.returnValue = 'cancel';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}
