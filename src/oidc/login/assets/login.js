// The OIDC login page's only script (docs/oidc.md, "The login page"): when <eid-qr> shows that the
// e-ID session ended, it goes on to the interaction's end, which sends the browser back to the client.
// A login opened in the app on this device goes on only in the browser the app returns to (it carries
// the session's nonce); this page then waits, unless the session failed.
const main = document.querySelector('main[data-done]');
const DELAY_MS = { complete: 600, failed: 1500, error: 1500 };
let leaving = false;

document.addEventListener('eid-qr-state', (event) => {
  const state = event.detail?.state;
  const delay = DELAY_MS[state];
  if (delay === undefined || leaving || !main) return;
  if (state === 'complete' && main.hasAttribute('data-await-return')) return;
  leaving = true;
  main.dataset.state = state;
  setTimeout(() => window.location.assign(main.dataset.done), delay);
});
