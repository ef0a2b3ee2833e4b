// The kiosk page: reads the session's event stream (a QR frame a second, then status changes), draws
// the QR, and shows BankID's recommended user messages. No framework; see docs/kiosk.md.
import qrcode from './qrcode.mjs';

// BankID's recommended user messages (RFA numbers from BankID's RP guidelines).
const MESSAGES = {
  sv: {
    connecting: 'Ansluter…',
    reconnecting: 'Anslutningen bröts. Återansluter…',
    invalidLink: 'Länken till den här skärmen är ogiltig eller har gått ut. Starta en ny legitimering.',
    complete: 'Klart! Du är legitimerad.',
    scan: 'Starta BankID-appen i din mobil och skanna QR-koden.', // RFA1, QR flow
    started: 'Söker efter BankID, det kan ta en liten stund…', // RFA15
    userSign: 'Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under.', // RFA9
    userMrtd: 'Fotografera och läs av din ID-handling med BankID-appen.', // RFA23
    pending: 'Identifiering eller underskrift pågår.', // RFA21
    expiredTransaction:
      'BankID-appen svarar inte. Kontrollera att den är startad och att du har internetanslutning. Om du inte har något giltigt BankID kan du skaffa ett hos din bank. Försök sedan igen.', // RFA8
    certificateErr:
      'Det BankID du försöker använda är för gammalt eller spärrat. Använd ett annat BankID eller skaffa ett nytt hos din bank.', // RFA16
    userCancel: 'Åtgärden avbruten.', // RFA6
    cancelled: 'Åtgärden avbruten. Försök igen.', // RFA3
    startFailed:
      'Misslyckades att läsa av QR-koden. Starta BankID-appen och läs av QR-koden. Kontrollera att BankID-appen är uppdaterad. Om du inte har BankID-appen måste du installera den och skaffa ett BankID hos din bank. Installera appen från din appbutik eller https://install.bankid.com.', // RFA17B
    failed: 'Okänt fel. Försök igen.', // RFA22
  },
  en: {
    connecting: 'Connecting…',
    reconnecting: 'Connection lost. Reconnecting…',
    invalidLink: 'The link to this screen is invalid or has expired. Please start a new identification.',
    complete: 'Done! You are identified.',
    scan: 'Start the BankID app on your phone and scan the QR code.',
    started: 'Searching for BankID, it may take a little while…',
    userSign: 'Enter your security code in the BankID app and select Identify or Sign.',
    userMrtd: 'Process your machine-readable travel document using the BankID app.',
    pending: 'Identification or signing in progress.',
    expiredTransaction:
      "The BankID app is not responding. Please check that it's started and that you have internet access. If you don't have a valid BankID you can get one from your bank. Try again.",
    certificateErr: 'The BankID you are trying to use is blocked or too old. Please use another BankID or get a new one from your bank.',
    userCancel: 'Action cancelled.',
    cancelled: 'Action cancelled. Please try again.',
    startFailed:
      "Failed to scan the QR code. Start the BankID app and scan the QR code. Check that the BankID app is up to date. If you don't have the BankID app, you need to install it and get a BankID from your bank. Install the app from your app store or https://install.bankid.com.",
    failed: 'Unknown error. Please try again.',
  },
};

const QR_HINTS = new Set(['outstandingTransaction', 'noClient']);
const QUIET_ZONE = 4;
// A frame older than this is about to be refused by the app: dim it and reconnect.
const STALE_AFTER_MS = 2500;
const MAX_RETRY_MS = 5000;

const text = MESSAGES[document.documentElement.lang === 'en' ? 'en' : 'sv'];
const main = document.querySelector('main');
const canvas = document.getElementById('qr');
const outcome = document.getElementById('outcome');
const spinner = document.getElementById('spinner');
const message = document.getElementById('message');

const sessionId = location.pathname.split('/').filter(Boolean).pop();
// The token leaves the address bar and the history at once (a shoulder, a screenshot or a shared history
// would leak it); the tab keeps it in sessionStorage, so a reload still works (docs/kiosk.md).
const tokenKey = `kiosk-token:${sessionId}`;
const token = new URLSearchParams(location.hash.slice(1)).get('t') ?? sessionStorage.getItem(tokenKey);
if (token) sessionStorage.setItem(tokenKey, token);
if (location.hash) history.replaceState(null, '', location.pathname + location.search);

let finished = false;
let hintCode = null;
let lastQrTime = -1;
let lastFrameAt = 0;
let retryMs = 1000;
let connection = null;

function show(state, words) {
  main.dataset.state = state;
  canvas.hidden = state !== 'qr';
  spinner.hidden = state !== 'connecting' && state !== 'waiting';
  outcome.hidden = state !== 'complete' && state !== 'failed' && state !== 'error';
  message.textContent = words;
}

function setStale(stale) {
  if (stale) main.dataset.stale = 'true';
  else delete main.dataset.stale;
}

function draw(qrData) {
  const code = qrcode(0, 'L');
  code.addData(qrData, 'Byte');
  code.make();
  const count = code.getModuleCount();
  const side = count + 2 * QUIET_ZONE;
  // Whole device pixels per module, so every module is a crisp square at any screen size.
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
  canvas.dataset.qrTime = String(lastQrTime);
}

function onFrame({ qrTime, qrData }) {
  lastFrameAt = Date.now();
  setStale(false);
  lastQrTime = qrTime;
  if (!QR_HINTS.has(hintCode ?? 'outstandingTransaction')) return;
  if (main.dataset.state !== 'qr' || message.textContent !== text.scan) show('qr', text.scan);
  draw(qrData);
}

function onStatus({ status, hintCode: hint }) {
  hintCode = hint ?? null;
  if (status === 'complete') return finish('complete', text.complete);
  if (status === 'failed') return finish('failed', text[hint] && !QR_HINTS.has(hint) ? text[hint] : text.failed);
  if (QR_HINTS.has(hint ?? 'outstandingTransaction')) {
    if (main.dataset.state !== 'qr' && lastQrTime >= 0) show('qr', text.scan);
    return;
  }
  show('waiting', text[hint] ?? text.pending);
}

function finish(state, words) {
  finished = true;
  setStale(false);
  show(state, words);
  connection?.abort();
}

function dispatch(block) {
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trim();
  }
  if (!data) return;
  const payload = JSON.parse(data);
  if (event === 'frame') onFrame(payload);
  else if (event === 'status') onStatus(payload);
}

// EventSource cannot send a header, and the token must not travel in a URL: read the stream with fetch.
async function connect() {
  connection = new AbortController();
  try {
    const response = await fetch(`${encodeURIComponent(sessionId)}/events`, {
      headers: { authorization: `Kiosk ${token}`, accept: 'text/event-stream' },
      cache: 'no-store',
      signal: connection.signal,
    });
    if (response.status === 401 || response.status === 404) return finish('error', text.invalidLink);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    retryMs = 1000;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  } catch {
    // A network blip or our own abort of a stale stream: fall through and reconnect.
  }
  if (finished) return;
  setStale(true);
  if (main.dataset.state !== 'qr') show(main.dataset.state === 'waiting' ? 'waiting' : 'connecting', text.reconnecting);
  else message.textContent = text.reconnecting;
  setTimeout(connect, retryMs);
  retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
}

// A stream that goes quiet (a proxy holding it, a sleeping network) is dropped and opened again.
setInterval(() => {
  if (!finished && main.dataset.state === 'qr' && Date.now() - lastFrameAt > STALE_AFTER_MS && !main.dataset.stale) {
    setStale(true);
    message.textContent = text.reconnecting;
    connection?.abort();
  }
}, 500);

if (!token || !sessionId) finish('error', text.invalidLink);
else {
  show('connecting', text.connecting);
  connect();
}
