import { userMessageFor, userMessageTableForBrowser, type UserMessageContext } from './user-messages.js';

const qr: UserMessageContext = { launch: 'qr' };
const autostart: UserMessageContext = { launch: 'autostart', mobile: true };
const phone: UserMessageContext = { launch: 'phone' };

describe(userMessageFor.name, () => {
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
    expect(userMessageFor(status, hintCode, context)).toEqual({ code, sv: expect.any(String), en });
  });

  it('should speak Swedish beside English', () => {
    expect(userMessageFor('failed', 'userCancel', qr)?.sv).toBe('Åtgärden avbruten.');
    expect(userMessageFor('pending', 'outstandingTransaction', autostart)?.sv).toBe('Försöker starta BankID-appen.');
  });

  it('should have no message for a complete session', () => {
    expect(userMessageFor('complete', undefined, qr)).toBeUndefined();
  });
});

describe(userMessageTableForBrowser.name, () => {
  it('should give the browser the same text as a poll answer for every state it knows and a fallback for others', () => {
    const { texts, picks } = userMessageTableForBrowser();
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
        const { sv, en } = userMessageFor(status, hintCode, context)!;
        expect(browser(status, hintCode, context.launch, context.mobile)).toEqual({ sv, en });
      }
    }
  });
});
