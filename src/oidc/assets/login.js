// The OIDC login page's only script (docs/oidc.md, "The login page"): when <eid-qr> shows that the
// e-ID session ended, it goes on to the interaction's end, which sends the browser back to the client.
const main = document.querySelector('main[data-done]');
const DELAY_MS = { complete: 600, failed: 1500, error: 1500 };
let leaving = false;

document.addEventListener('eid-qr-state', (event) => {
  const delay = DELAY_MS[event.detail?.state];
  if (delay === undefined || leaving || !main) return;
  leaving = true;
  main.dataset.state = event.detail.state;
  setTimeout(() => window.location.assign(main.dataset.done), delay);
});
