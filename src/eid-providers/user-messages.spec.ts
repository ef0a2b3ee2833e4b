import { LANGUAGES } from '../common/languages/languages.js';
import { EUDI_USER_MESSAGES } from './eudi/eudi-user-messages.js';
import { FREJA_USER_MESSAGES } from './freja/freja-user-messages.js';
import { upstreamUserMessages } from './upstream-oidc/upstream-user-messages.js';
import { RFA_USER_MESSAGES } from './shared/rfa-user-messages.js';
import { browserMessageTable, userMessageFor, type UserMessageContext, type UserMessageTable } from './user-messages.js';

const qr: UserMessageContext = { launch: 'qr' };
const autostart: UserMessageContext = { launch: 'autostart', mobile: true };
const phone: UserMessageContext = { launch: 'phone' };

describe(`${userMessageFor.name} with BankID's table`, () => {
  it.each([
    ['pending', 'outstandingTransaction', qr, 'RFA1', 'Start the BankID app on your phone and scan the QR code.'],
    ['pending', 'outstandingTransaction', autostart, 'RFA13', 'Trying to start your BankID app.'],
    ['pending', 'outstandingTransaction', phone, 'RFA1', 'Start your BankID app.'],
    ['pending', 'noClient', autostart, 'RFA1', 'Start your BankID app.'],
    ['pending', 'started', qr, 'RFA15A', expect.stringContaining('on this computer')],
    ['pending', 'started', autostart, 'RFA15B', expect.stringContaining('on this device')],
    ['pending', 'userMrtd', qr, 'RFA23', expect.stringContaining('travel document')],
    ['pending', 'userSign', qr, 'RFA9', 'Enter your security code in the BankID app and select Identify or Sign.'],
    ['pending', 'userCallConfirm', phone, 'RFA21', 'Identification or signing in progress.'],
    ['pending', 'somethingNew', qr, 'RFA21', 'Identification or signing in progress.'],
    ['pending', undefined, qr, 'RFA21', 'Identification or signing in progress.'],
    ['failed', 'expiredTransaction', qr, 'RFA8', expect.stringContaining('not responding')],
    ['failed', 'certificateErr', qr, 'RFA16', expect.stringContaining('blocked or too old')],
    ['failed', 'userCancel', autostart, 'RFA6', 'Action cancelled.'],
    ['failed', 'cancelled', qr, 'RFA3', 'Action cancelled. Please try again.'],
    ['failed', 'startFailed', qr, 'RFA17B', expect.stringContaining('Failed to scan the QR code')],
    ['failed', 'startFailed', autostart, 'RFA17A', expect.stringContaining("couldn't be found")],
    ['failed', 'userDeclinedCall', phone, 'RFA22', 'Unknown error. Please try again.'],
    ['failed', 'returnNonceMismatch', autostart, 'RFA22', 'Unknown error. Please try again.'],
    // An own property of every object must not be mistaken for a hint code.
    ['failed', 'constructor', qr, 'RFA22', 'Unknown error. Please try again.'],
  ])('should answer %s/%s (%j) with %s', (status, hintCode, context, code, en) => {
    expect(userMessageFor(RFA_USER_MESSAGES, status, hintCode, context)).toEqual({ code, sv: expect.any(String), en });
  });

  it('should speak Swedish beside English', () => {
    expect(userMessageFor(RFA_USER_MESSAGES, 'failed', 'userCancel', qr)?.sv).toBe('Åtgärden avbruten.');
    expect(userMessageFor(RFA_USER_MESSAGES, 'pending', 'outstandingTransaction', autostart)?.sv).toBe('Försöker starta BankID-appen.');
  });

  it('should have no message for a complete session', () => {
    expect(userMessageFor(RFA_USER_MESSAGES, 'complete', undefined, qr)).toBeUndefined();
    expect(userMessageFor(FREJA_USER_MESSAGES, 'complete', undefined, qr)).toBeUndefined();
  });
});

describe(`${userMessageFor.name} with Freja's table`, () => {
  it.each([
    ['pending', 'outstandingTransaction', qr, 'FREJA_SCAN_QR', 'Open the Freja app on your phone, tap Scan and scan the QR code.'],
    ['pending', 'outstandingTransaction', autostart, 'FREJA_OPENING_APP', 'Trying to open the Freja app.'],
    ['pending', 'started', qr, 'FREJA_APPROVE', 'Approve in the Freja app with your PIN or biometrics.'],
    ['pending', 'started', autostart, 'FREJA_APPROVE', 'Approve in the Freja app with your PIN or biometrics.'],
    ['pending', 'somethingNew', qr, 'FREJA_IN_PROGRESS', 'Identification or signing with Freja in progress.'],
    ['pending', undefined, qr, 'FREJA_IN_PROGRESS', 'Identification or signing with Freja in progress.'],
    ['failed', 'userCancel', qr, 'FREJA_DECLINED', 'You declined in the Freja app.'],
    ['failed', 'cancelled', qr, 'FREJA_CANCELLED', 'Action cancelled. Please try again.'],
    ['failed', 'expiredTransaction', qr, 'FREJA_EXPIRED', 'The time to approve in the Freja app ran out. Please try again.'],
    ['failed', 'providerRejected', qr, 'FREJA_REJECTED', expect.stringContaining('security reasons')],
    ['failed', 'providerError', qr, 'FREJA_FAILED', 'Unknown error. Please try again.'],
    ['failed', 'returnNonceMismatch', autostart, 'FREJA_FAILED', 'Unknown error. Please try again.'],
    ['failed', 'constructor', qr, 'FREJA_FAILED', 'Unknown error. Please try again.'],
  ])('should answer %s/%s (%j) with %s', (status, hintCode, context, code, en) => {
    expect(userMessageFor(FREJA_USER_MESSAGES, status, hintCode, context)).toEqual({ code, sv: expect.any(String), en });
  });

  it('should speak Swedish beside English', () => {
    expect(userMessageFor(FREJA_USER_MESSAGES, 'pending', 'started', qr)?.sv).toBe('Godkänn i Freja-appen med din PIN-kod eller biometri.');
  });

  it('should never send a Freja user to BankID, in any state or language', () => {
    const hintCodes = ['outstandingTransaction', 'started', 'userCancel', 'cancelled', 'expiredTransaction', 'providerRejected', 'x'];
    for (const status of ['pending', 'failed']) {
      for (const hintCode of hintCodes) {
        for (const context of [qr, autostart]) {
          const { code, sv, en } = userMessageFor(FREJA_USER_MESSAGES, status, hintCode, context)!;
          expect(`${code} ${sv} ${en}`).not.toMatch(/bankid|RFA/i);
        }
      }
    }
  });
});

describe(browserMessageTable.name, () => {
  it('should give the browser the same text as a poll answer for every state it knows and a fallback for others', () => {
    const { texts, picks } = browserMessageTable(RFA_USER_MESSAGES);
    const browser = (status: string, hintCode: string, launch: string, mobile: boolean) => {
      const context = `${launch}|${mobile ? 1 : 0}`;
      return texts[picks[`${status}|${hintCode}|${context}`] ?? picks[`${status}||${context}`]];
    };
    for (const [status, hintCode] of [
      ['pending', 'outstandingTransaction'],
      ['pending', 'started'],
      ['pending', 'somethingNew'],
      ['failed', 'startFailed'],
      ['failed', 'userCancel'],
      ['failed', 'somethingNew'],
    ]) {
      for (const context of [
        { launch: 'qr', mobile: false },
        { launch: 'autostart', mobile: true },
      ] as const) {
        const { sv, en } = userMessageFor(RFA_USER_MESSAGES, status, hintCode, context)!;
        expect(browser(status, hintCode, context.launch, context.mobile)).toMatchObject({ sv, en });
      }
    }
  });
});

// Every provider's table the pages show (docs/providers.md, "Languages").
describe.each([
  ['BankID (RFA)', RFA_USER_MESSAGES],
  ['Freja', FREJA_USER_MESSAGES],
  ['the EU wallet', EUDI_USER_MESSAGES],
  ['an upstream', upstreamUserMessages('BankID (Norge)')],
] as [string, UserMessageTable][])('The messages of %s', (_, table) => {
  const keys = Object.keys(table.texts);

  it.each(keys)('should have %s in exactly the five languages, each a sentence of its own', (key) => {
    const texts = table.texts[key] as Record<string, string>;
    expect(Object.keys(texts).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(texts[language].trim()).not.toBe('');
      if (language !== 'en') expect({ language, text: texts[language] }).not.toEqual({ language, text: texts.en });
      // What the English names (an address, the e-ID by name) every language names too.
      for (const kept of texts.en.match(/https:\/\/\S+\w|BankID \(Norge\)/g) ?? []) expect(texts[language]).toContain(kept);
    }
  });

  it('should pick a text that exists for every state, on every device', () => {
    const { texts, picks } = browserMessageTable(table);
    for (const key of Object.values(picks)) expect(Object.keys(texts[key]).sort()).toEqual([...LANGUAGES].sort());
    for (const status of ['pending', 'failed'])
      for (const hintCode of [...Object.keys(table.pending), ...Object.keys(table.failed), 'somethingNew'])
        for (const context of [qr, autostart, phone]) expect(userMessageFor(table, status, hintCode, context)).toBeDefined();
  });
});
