// The kiosk page: a thin page around <eid-qr> (docs/kiosk.md). It hands the element the session and the
// token from the address, and mirrors the element's state onto the page.
import '../eid-qr.js';

const main = document.querySelector('main');
const element = document.querySelector('eid-qr');

const sessionId = location.pathname.split('/').filter(Boolean).pop() ?? '';
// The token leaves the address bar and the history at once (a shoulder, a screenshot or a shared history
// would leak it); the tab keeps it in sessionStorage, so a reload still works (docs/kiosk.md).
const tokenKey = `kiosk-token:${sessionId}`;
const token = new URLSearchParams(location.hash.slice(1)).get('t') ?? sessionStorage.getItem(tokenKey);
if (token) sessionStorage.setItem(tokenKey, token);
if (location.hash) history.replaceState(null, '', location.pathname + location.search);

const heading = document.querySelector('h1');
const plainHeading = heading.textContent;
// The whole sentence of the page's language, with the app's name in its place.
const withApp = heading.dataset.withApp;
const mirror = () => {
  main.dataset.state = element.getAttribute('state') ?? 'connecting';
  main.toggleAttribute('data-stale', element.hasAttribute('stale'));
  // The heading names the session's e-ID app once the element knows it (docs/kiosk.md).
  const app = element.getAttribute('app');
  const text = app ? withApp.replaceAll('{app}', app) : plainHeading;
  if (heading.textContent !== text) heading.textContent = document.title = text;
};
new MutationObserver(mirror).observe(element, { attributes: true, attributeFilter: ['state', 'stale', 'app'] });

element.setAttribute('session', sessionId);
element.setAttribute('token', token ?? '');
mirror();
