import { escapeHtml, htmlDocument, inlineStyle, pageHeaders, SELF } from '../../common/html/html-page.js';
import type { UserVisibleTransaction } from '../eid-provider.js';

export type SimulatorAppPageState = 'waiting' | 'done' | 'gone' | 'home' | 'idcard';

// One small stylesheet, allowed by its hash, so the page needs no second request and no 'unsafe-inline'.
const STYLE = inlineStyle(
  `
:root { color-scheme: light; font-family: system-ui, sans-serif; }
body { margin: 0; background: #183e4f; color: #fff; min-height: 100vh; display: flex; }
main { margin: auto; padding: 24px; width: 100%; max-width: 420px; box-sizing: border-box; text-align: center; }
h1 { font-size: 1.4rem; margin: 0 0 8px; }
p { line-height: 1.45; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; background: #f6c344; color: #183e4f; font-size: .8rem; font-weight: 700; }
form { display: grid; gap: 12px; margin-top: 28px; }
button { font: inherit; font-size: 1.1rem; padding: 16px; border-radius: 12px; border: 0; cursor: pointer; min-height: 56px; }
#approve { background: #fff; color: #183e4f; font-weight: 700; }
#cancel { background: transparent; color: #fff; border: 2px solid #fff; }
dl { text-align: left; background: #fff; color: #183e4f; border-radius: 12px; padding: 12px 16px; margin: 20px 0 0; }
dt { font-size: .8rem; opacity: .75; }
dd { margin: 0 0 8px; font-weight: 700; }
.destination { font-size: .9rem; opacity: .85; }
.warning { background: #f6c344; color: #183e4f; border-radius: 12px; padding: 10px 14px; font-weight: 700; }
label { text-align: left; font-size: .9rem; }
input { font: inherit; font-size: 1.1rem; padding: 12px; border-radius: 8px; border: 0; width: 100%; box-sizing: border-box; }
#show-idcard { background: #fff; color: #183e4f; font-weight: 700; }
figure { margin: 20px auto 0; background: #fff; border-radius: 12px; padding: 12px; max-width: 320px; }
figure svg { width: 100%; height: auto; display: block; }
`.trim(),
);

const TEXT: Record<SimulatorAppPageState, { heading: string; body: string }> = {
  waiting: {
    heading: 'Identify yourself?',
    body: 'A service on this device asks you to identify yourself with BankID. This is the simulator: no real identity is used.',
  },
  done: { heading: 'Done', body: 'You can go back to the browser you came from.' },
  gone: {
    heading: 'No order to show',
    body: 'This link does not open a waiting order: it was used already, has expired, or is not valid.',
  },
  home: {
    heading: 'BankID',
    body: 'This is the simulator: no real identity is used. Show a digital ID card to check it at a counter.',
  },
  idcard: {
    heading: 'Digital ID card',
    body: 'Let the counter scan the code. It can be checked once, until the time below; then show the card again.',
  },
};

/** The card the simulated app shows (docs/idcard.md): its holder, its code as an SVG QR, and until when it may be verified. */
export interface SimulatorIdCardView {
  name: string;
  qrCode: string;
  qrSvg: string;
  expiresAt: Date;
}

// The simulator's default holder; any other 12-digit personal number may be typed in.
const showIdCardForm = (personalNumber: string) => `<form method="post" action="/simulator/app/idcard">
  <label for="personal-number">Personal number</label>
  <input id="personal-number" name="personalNumber" inputmode="numeric" autocomplete="off" pattern="[0-9]{12}" value="${escapeHtml(personalNumber)}">
  <button id="show-idcard">Show ID card</button>
</form>`;

function idCardMarkup(card: SimulatorIdCardView, personalNumber: string): string {
  return `<figure id="idcard" data-qr-code="${escapeHtml(card.qrCode)}" data-expires-at="${card.expiresAt.toISOString()}">
  ${card.qrSvg}
  <figcaption><strong>${escapeHtml(card.name)}</strong></figcaption>
</figure>
<p>Valid until <time datetime="${card.expiresAt.toISOString()}">${card.expiresAt.toISOString().slice(11, 19)} UTC</time>.</p>
${showIdCardForm(personalNumber)}`;
}

const PAYMENT_TEXT = {
  heading: 'Approve the payment?',
  body: 'A service on this device asks you to approve this payment with BankID. This is the simulator: no money moves.',
};

/** The transaction as the app shows it; every value is the RP's text, so every value is escaped. */
function transactionMarkup(transaction: UserVisibleTransaction): string {
  const rows: [string, string][] = [
    ['Type', transaction.transactionType === 'card' ? 'Card payment' : 'Non-payment authorisation'],
    ['Recipient', transaction.recipient.name],
    ...(transaction.money ? [['Amount', `${transaction.money.amount} ${transaction.money.currency}`] as [string, string]] : []),
  ];
  const warning = transaction.riskWarning ? `<p class="warning">${escapeHtml(transaction.riskWarning)}</p>` : '';
  return `${warning}<dl id="transaction">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

export interface SimulatorAppPageOrder {
  autoStartToken: string;
  transaction?: UserVisibleTransaction;
  /** The host of the order's returnUrl, where the answer sends the browser. */
  returnHost?: string;
}

/**
 * The simulator's stand-in for the BankID app on the same device (docs/same-device.md): static markup,
 * no script; approving or cancelling is a plain form post. The autostart token was checked to be a
 * UUID; a payment's transaction is the RP's text and is escaped. Any holder of a test key chooses the
 * returnUrl, so the page names its host before the tap: the page is no blind redirect on our domain.
 */
export function simulatorAppPage(
  state: SimulatorAppPageState,
  order?: SimulatorAppPageOrder,
  idCard?: { card?: SimulatorIdCardView; personalNumber: string },
): string {
  const transaction = order?.transaction;
  const text = state === 'waiting' && transaction ? PAYMENT_TEXT : TEXT[state];
  const details = state === 'waiting' && transaction ? transactionMarkup(transaction) : '';
  const destination =
    state === 'waiting' && order?.returnHost
      ? `<p class="destination" id="destination">Afterwards you return to <strong>${escapeHtml(order.returnHost)}</strong>.</p>`
      : '';
  const form = idCard
    ? idCard.card
      ? idCardMarkup(idCard.card, idCard.personalNumber)
      : showIdCardForm(idCard.personalNumber)
    : state === 'waiting' && order
      ? `<form method="post" action="/simulator/app">
  <input type="hidden" name="autostarttoken" value="${order.autoStartToken}">
  <button id="approve" name="action" value="approve">${transaction ? 'Approve' : 'Identify'}</button>
  <button id="cancel" name="action" value="cancel">Cancel</button>
</form>`
      : '';
  return htmlDocument({
    language: 'en',
    title: 'BankID (simulator)',
    head: `${STYLE.element}\n`,
    body: `<main data-state="${state}">
  <span class="badge">SIMULATOR</span>
  <h1>${text.heading}</h1>
  <p>${text.body}</p>
  ${details}
  ${form}
  ${destination}
</main>`,
  });
}

/**
 * A strict policy: no script at all, our one stylesheet by hash, forms only to this page and, after the
 * post, the redirect to the RP's returnUrl (browsers check a form's redirect against form-action too).
 */
export const simulatorAppPageHeaders = (returnOrigin?: string): Record<string, string> =>
  pageHeaders({ allow: { 'style-src': [STYLE.source] }, formAction: [SELF, ...(returnOrigin ? [returnOrigin] : [])] });
