// <eid-qr session="{id}" token="{kiosk token}" lang="sv|en|nb|da|fi">: the QR, the user messages (in the words of
// the session's provider) and the outcome of one session, for any page (docs/same-device.md). A standard custom element:
// its markup lives in a shadow root and its styles in a constructable stylesheet, so a host page under a
// strict CSP (no inline script or style) needs nothing but `script-src` for this file and `connect-src`
// for the service. It reads the kiosk event stream; on a phone or tablet it offers "Open <app>" first.
// `device="this"` offers only the app on this device, `device="other"` only the QR (docs/same-device.md).
import qrcode from './assets/qrcode.mjs';
import { providers } from './assets/user-messages.js';
import { WORDS } from './assets/eid-qr-words.js';

// Until the stream names the session's provider (its first event does), the first table stands in.
const FIRST = Object.keys(providers)[0];

// The words that are ours, not the provider's, in sv, en, nb, da and fi (src/kiosk/eid-qr-words.ts);
// `{app}` is the provider's app name. The provider's own messages are Swedish and English: other
// languages read them in English (docs/kiosk.md, "Languages").
const LANGUAGES = ['sv', 'en', 'nb', 'da', 'fi'];
const languageOf = (lang) => (LANGUAGES.includes(lang) ? lang : 'sv');

const QR_HINTS = new Set(['outstandingTransaction', 'noClient']);
const QUIET_ZONE = 4;
// A frame older than this is about to be refused by the app: dim it and reconnect.
const STALE_AFTER_MS = 2500;
const MAX_RETRY_MS = 5000;
// The stream and the launch link live beside this file: /kiosk/{session}/events and /kiosk/{session}/launch.
const SERVICE = new URL('./', import.meta.url);

const sheet = new CSSStyleSheet();
sheet.replaceSync(`
:host { display: block; --eid-qr-size: min(60vh, 86vw, 720px); --eid-qr-brand: #193e4f; --eid-qr-ok: #1b7a3d;
  --eid-qr-bad: #b3261e; --eid-qr-muted: #4a4a4a; color: inherit; font: inherit; }
[hidden] { display: none !important; }
.root { display: flex; flex-direction: column; align-items: center; gap: clamp(1rem, 3vh, 2.5rem); text-align: center; }
.stage { width: var(--eid-qr-size); height: var(--eid-qr-size); display: flex; align-items: center; justify-content: center; position: relative; }
.root[data-state="launch"] .stage { height: auto; }
.qr { width: 100%; height: 100%; image-rendering: pixelated; border-radius: 12px;
  box-shadow: 0 0 0 1px #d9d9d9, 0 8px 28px rgba(0, 0, 0, 0.08); transition: opacity 0.3s; }
.root[data-stale] .qr { opacity: 0.2; }
.message { margin: 0; max-width: 34em; font-size: clamp(1.1rem, 1.3vw + 1.4vh, 2.4rem); line-height: 1.35; }
.root[data-stale] .message { color: var(--eid-qr-muted); }
.launch { display: block; width: 100%; max-width: 22rem; padding: 1rem 1.5rem; border-radius: 12px; background: var(--eid-qr-brand);
  color: #fff; font-size: 1.25rem; font-weight: 700; text-decoration: none; }
.toggle { font: inherit; background: none; border: 0; color: var(--eid-qr-brand); text-decoration: underline; cursor: pointer; padding: 0.5rem; }
.outcome { width: 55%; aspect-ratio: 1; border-radius: 50%; display: flex; align-items: center; justify-content: center; position: relative; }
.outcome::after { content: ""; width: 42%; height: 22%; border: solid #fff;
  border-width: 0 0 clamp(10px, 2.2vmin, 26px) clamp(10px, 2.2vmin, 26px); transform: translateY(-25%) rotate(-45deg); }
.root[data-state="complete"] .outcome { background: var(--eid-qr-ok); }
.root[data-state="failed"] .outcome, .root[data-state="error"] .outcome { background: var(--eid-qr-bad); }
.root[data-state="failed"] .outcome::after, .root[data-state="error"] .outcome::after,
.root[data-state="failed"] .outcome::before, .root[data-state="error"] .outcome::before {
  content: ""; position: absolute; width: 48%; height: clamp(10px, 2.2vmin, 26px); border: 0; background: #fff; transform: rotate(45deg); }
.root[data-state="failed"] .outcome::before, .root[data-state="error"] .outcome::before { transform: rotate(-45deg); }
.spinner { width: 22%; aspect-ratio: 1; border-radius: 50%; border: clamp(6px, 1.2vmin, 14px) solid #d9e2e6;
  border-top-color: var(--eid-qr-brand); animation: spin 1s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } .qr { transition: none; } }
`);

// The app link only where the app can be on the same device, phones and tablets (an iPad
// asking for desktop sites says "Macintosh" but has a touch screen).
const handheld = () =>
  /Android|iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);

export class EidQrElement extends HTMLElement {
  static observedAttributes = ['session', 'token', 'lang', 'device'];

  #parts;
  #connection = null;
  #staleTimer = 0;
  #retryTimer = 0;
  #running = false;
  #finished = false;
  #hintCode = null;
  #lastQrTime = -1;
  #lastFrameAt = 0;
  #qrData = null;
  #drawn = null;
  #retryMs = 1000;
  #handheld = false;
  // The host's choice of one way ('launch' or 'qr'), which the person cannot switch; null: both.
  #only = null;
  // On a phone: show the app link ('launch') or the QR ('qr'); the person can switch.
  #view = 'qr';
  #launched = false;
  #launchUrl = null;
  #provider = null;
  // A session without a QR (an OpenID login for this device only): frames come without qrData, the app link is all there is.
  #qrLess = false;

  connectedCallback() {
    if (!this.#parts) this.#build();
    this.#start();
  }

  disconnectedCallback() {
    this.#stop();
  }

  attributeChangedCallback() {
    if (!this.isConnected || !this.#parts) return;
    this.#stop();
    this.#start();
  }

  get #table() {
    return (this.#provider && providers[this.#provider]) || providers[FIRST];
  }

  get #words() {
    const app = this.#table.appName;
    const words = WORDS[languageOf(this.getAttribute('lang'))];
    return Object.fromEntries(Object.entries(words).map(([key, text]) => [key, text.replaceAll('{app}', app)]));
  }

  // The QR's label and the button name the session's app.
  #label() {
    this.#parts.canvas.setAttribute('aria-label', this.#words.qrLabel);
    this.#parts.canvas.textContent = this.#words.qrLabel;
    this.#parts.launch.textContent = this.#words.open;
  }

  #build() {
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [sheet];
    const element = (tag, attributes, parent) => {
      const node = document.createElement(tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
      parent.append(node);
      return node;
    };
    const root = element('div', { class: 'root', part: 'root', 'data-state': 'connecting' }, shadow);
    const launch = element('a', { class: 'launch', id: 'launch', part: 'launch', rel: 'noreferrer', hidden: '' }, root);
    const stage = element('div', { class: 'stage', part: 'stage' }, root);
    const canvas = element('canvas', { class: 'qr', id: 'qr', role: 'img', width: '0', height: '0', hidden: '' }, stage);
    const outcome = element('div', { class: 'outcome', id: 'outcome', 'aria-hidden': 'true', hidden: '' }, stage);
    const spinner = element('div', { class: 'spinner', id: 'spinner', 'aria-hidden': 'true' }, stage);
    const message = element('p', { class: 'message', id: 'message', part: 'message', role: 'status', 'aria-live': 'polite' }, root);
    const toggle = element('button', { class: 'toggle', id: 'toggle', part: 'toggle', type: 'button', hidden: '' }, root);
    // The tap itself follows the link (same tab, as the e-ID apps ask on iOS and Android); we only note it.
    launch.addEventListener('click', () => {
      this.#launched = true;
      this.#render();
    });
    toggle.addEventListener('click', () => {
      this.#view = this.#view === 'qr' ? 'launch' : 'qr';
      this.#render();
    });
    this.#parts = { root, launch, canvas, outcome, spinner, message, toggle };
  }

  #start() {
    const session = this.getAttribute('session');
    const token = this.getAttribute('token');
    // The host may set the attributes a moment later (the kiosk page reads them from its address).
    if (session === null || token === null) return this.#show('connecting', this.#words.connecting);
    this.#running = true;
    this.#finished = false;
    this.#hintCode = null;
    this.#lastQrTime = -1;
    this.#qrData = null;
    this.#drawn = null;
    this.#launched = false;
    this.#launchUrl = null;
    this.#provider = null;
    this.#qrLess = false;
    const device = this.getAttribute('device');
    this.#only = device === 'this' ? 'launch' : device === 'other' ? 'qr' : null;
    this.#handheld = this.#only ? this.#only === 'launch' : handheld();
    this.#view = this.#handheld ? 'launch' : 'qr';
    this.#label();
    if (!session || !token) return this.#finish('error', this.#words.invalidLink);
    this.#show('connecting', this.#words.connecting);
    if (this.#handheld) void this.#fetchLaunchUrl();
    void this.#connect();
    this.#staleTimer = setInterval(() => this.#checkStale(), 500);
  }

  #stop() {
    this.#running = false;
    clearInterval(this.#staleTimer);
    clearTimeout(this.#retryTimer);
    this.#connection?.abort();
  }

  #show(state, words) {
    const { root, canvas, spinner, outcome, message, launch, toggle } = this.#parts;
    root.dataset.state = state;
    canvas.hidden = state !== 'qr';
    spinner.hidden = state !== 'connecting' && state !== 'waiting';
    outcome.hidden = state !== 'complete' && state !== 'failed' && state !== 'error';
    launch.hidden = state !== 'launch' || !this.#launchUrl;
    toggle.hidden = !this.#handheld || this.#qrLess || this.#only !== null || (state !== 'launch' && state !== 'qr') || !this.#launchUrl;
    toggle.textContent = state === 'qr' ? this.#words.showLaunch : this.#words.showQr;
    if (message.textContent !== words) message.textContent = words;
    // The host can follow along (the kiosk page mirrors it): state and staleness as attributes and an event.
    if (this.getAttribute('state') !== state) {
      this.setAttribute('state', state);
      const detail = { state, hintCode: this.#hintCode, provider: this.#provider, appName: this.#table.appName };
      this.dispatchEvent(new CustomEvent('eid-qr-state', { detail, bubbles: true, composed: true }));
    }
  }

  #setStale(stale) {
    this.#parts.root.toggleAttribute('data-stale', stale);
    this.toggleAttribute('stale', stale);
  }

  #message(status, hintCode) {
    const launch = this.#view === 'launch' && this.#launched ? 'autostart' : 'qr';
    const context = `${launch}|${this.#handheld ? 1 : 0}`;
    const { picks, texts } = this.#table;
    const key = picks[`${status}|${hintCode ?? ''}|${context}`] ?? picks[`${status}||${context}`];
    const language = languageOf(this.getAttribute('lang'));
    return texts[key][language] ?? texts[key].en;
  }

  // What the person should see now, from the last status and the chosen view.
  #render() {
    if (this.#finished || !this.#running) return;
    const hint = this.#hintCode ?? 'outstandingTransaction';
    if (!QR_HINTS.has(hint)) return this.#show('waiting', this.#message('pending', hint));
    if (this.#view === 'launch' && this.#launchUrl) return this.#show('launch', this.#message('pending', hint));
    if (!this.#qrData) return this.#show('connecting', this.#words.connecting);
    this.#show('qr', this.#message('pending', hint));
    if (this.#drawn !== this.#qrData) this.#draw(this.#qrData);
  }

  #draw(qrData) {
    const canvas = this.#parts.canvas;
    const code = qrcode(0, 'L');
    code.addData(qrData, 'Byte');
    code.make();
    const count = code.getModuleCount();
    const side = count + 2 * QUIET_ZONE;
    // Whole device pixels per module, so every module is a crisp square at any size.
    const scale = Math.max(4, Math.floor((canvas.getBoundingClientRect().width * devicePixelRatio) / side));
    if (canvas.width !== side * scale) canvas.width = canvas.height = side * scale;
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#000';
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) {
        if (code.isDark(row, col)) context.fillRect((col + QUIET_ZONE) * scale, (row + QUIET_ZONE) * scale, scale, scale);
      }
    }
    canvas.dataset.qrTime = String(this.#lastQrTime);
    this.#drawn = qrData;
  }

  #onFrame({ qrTime, qrData }) {
    this.#lastFrameAt = Date.now();
    this.#setStale(false);
    if (!qrData && !this.#qrLess) {
      this.#qrLess = true;
      this.#view = 'launch';
      void this.#fetchLaunchUrl();
    }
    // A renewed order starts its clock again: its autostart token is new too.
    if (qrTime < this.#lastQrTime && this.#handheld) void this.#fetchLaunchUrl();
    this.#lastQrTime = qrTime;
    this.#qrData = qrData;
    this.#render();
  }

  #onStatus({ status, hintCode, provider }) {
    if (provider && provider !== this.#provider && Object.hasOwn(providers, provider)) {
      this.#provider = provider;
      this.#label();
      this.setAttribute('app', this.#table.appName);
    }
    this.#hintCode = hintCode ?? null;
    if (status === 'complete') return this.#finish('complete', this.#words.complete);
    if (status === 'failed') return this.#finish('failed', this.#message('failed', hintCode));
    this.#render();
  }

  #finish(state, words) {
    this.#finished = true;
    this.#setStale(false);
    this.#show(state, words);
    this.#stop();
  }

  #request(path, accept, signal) {
    return fetch(new URL(`${encodeURIComponent(this.getAttribute('session'))}/${path}`, SERVICE), {
      headers: { authorization: `Kiosk ${this.getAttribute('token')}`, accept },
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      signal,
    });
  }

  async #fetchLaunchUrl() {
    try {
      const response = await this.#request('launch', 'application/json');
      if (!response.ok) return;
      this.#launchUrl = (await response.json()).launchUrl ?? null;
      if (this.#launchUrl) this.#parts.launch.href = this.#launchUrl;
      else if (!this.#qrLess) this.#view = 'qr';
      this.#render();
    } catch {
      // Without the link the QR still works; the next renewal tries again.
    }
  }

  // EventSource cannot send a header, and the token must not travel in a URL: read the stream with fetch.
  async #connect() {
    this.#connection = new AbortController();
    try {
      const response = await this.#request('events', 'text/event-stream', this.#connection.signal);
      if (response.status === 401 || response.status === 404) return this.#finish('error', this.#words.invalidLink);
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      this.#retryMs = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.#dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // A network blip or our own abort of a stale stream: fall through and reconnect.
    }
    if (this.#finished || !this.#running) return;
    this.#setStale(true);
    const state = this.#parts.root.dataset.state;
    if (state === 'qr' || state === 'launch') this.#parts.message.textContent = this.#words.reconnecting;
    else this.#show(state === 'waiting' ? 'waiting' : 'connecting', this.#words.reconnecting);
    this.#retryTimer = setTimeout(() => void this.#connect(), this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }

  #dispatch(block) {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (!data) return;
    const payload = JSON.parse(data);
    if (event === 'frame') this.#onFrame(payload);
    else if (event === 'status') this.#onStatus(payload);
  }

  // A stream that goes quiet (a proxy holding it, a sleeping network, a phone back from the app) is opened again.
  #checkStale() {
    const state = this.#parts.root.dataset.state;
    if (this.#finished || (state !== 'qr' && state !== 'launch') || this.#parts.root.hasAttribute('data-stale')) return;
    if (Date.now() - this.#lastFrameAt <= STALE_AFTER_MS) return;
    this.#setStale(true);
    this.#parts.message.textContent = this.#words.reconnecting;
    this.#connection?.abort();
  }
}

if (!customElements.get('eid-qr')) customElements.define('eid-qr', EidQrElement);
