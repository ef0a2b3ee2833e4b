import type { MessagePick, UserMessageTable } from '../user-messages.js';

/**
 * BankID's recommended user messages (the RFA table of BankID's RP guidelines), picked for a session's
 * state the way those guidelines say: by status, hint code, and how the order was started
 * (docs/bankid.md, docs/same-device.md). The simulator stands in for BankID, so it has these words too.
 */
const RFA = {
  RFA1: { sv: 'Starta BankID-appen.', en: 'Start your BankID app.' },
  // RFA1 as BankID words it beside a QR code.
  RFA1QR: {
    sv: 'Starta BankID-appen i din mobil och skanna QR-koden.',
    en: 'Start the BankID app on your phone and scan the QR code.',
  },
  RFA3: { sv: 'Åtgärden avbruten. Försök igen.', en: 'Action cancelled. Please try again.' },
  RFA6: { sv: 'Åtgärden avbruten.', en: 'Action cancelled.' },
  RFA8: {
    sv: 'BankID-appen svarar inte. Kontrollera att den är startad och att du har internetanslutning. Om du inte har något giltigt BankID kan du skaffa ett hos din bank. Försök sedan igen.',
    en: "The BankID app is not responding. Please check that it's started and that you have internet access. If you don't have a valid BankID you can get one from your bank. Try again.",
  },
  RFA9: {
    sv: 'Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under.',
    en: 'Enter your security code in the BankID app and select Identify or Sign.',
  },
  RFA13: { sv: 'Försöker starta BankID-appen.', en: 'Trying to start your BankID app.' },
  RFA15A: {
    sv: 'Söker efter BankID, det kan ta en liten stund… Om det har gått några sekunder och inget BankID har hittats har du sannolikt inget BankID som går att använda för den aktuella identifieringen/underskriften i den här datorn. Om du har ett BankID-kort, sätt in det i kortläsaren. Om du inte har något BankID kan du skaffa ett hos din bank.',
    en: "Searching for BankID, it may take a little while… If a few seconds have passed and still no BankID has been found, you probably don't have a BankID which can be used for this identification/signing on this computer. If you have a BankID card, please insert it into your card reader. If you don't have a BankID you can get one from your bank.",
  },
  RFA15B: {
    sv: 'Söker efter BankID, det kan ta en liten stund… Om det har gått några sekunder och inget BankID har hittats har du sannolikt inget BankID som går att använda för den aktuella identifieringen/underskriften i den här enheten. Om du inte har något BankID kan du skaffa ett hos din bank.',
    en: "Searching for BankID, it may take a little while… If a few seconds have passed and still no BankID has been found, you probably don't have a BankID which can be used for this identification/signing on this device. If you don't have a BankID you can get one from your bank.",
  },
  RFA16: {
    sv: 'Det BankID du försöker använda är för gammalt eller spärrat. Använd ett annat BankID eller skaffa ett nytt hos din bank.',
    en: 'The BankID you are trying to use is blocked or too old. Please use another BankID or get a new one from your bank.',
  },
  RFA17A: {
    sv: 'BankID-appen verkar inte finnas i din dator eller mobil. Installera den och skaffa ett BankID hos din bank. Installera appen från din appbutik eller https://install.bankid.com.',
    en: "The BankID app couldn't be found on your computer or mobile device. Please install it and get a BankID from your bank. Install the app from your app store or https://install.bankid.com.",
  },
  RFA17B: {
    sv: 'Misslyckades att läsa av QR-koden. Starta BankID-appen och läs av QR-koden. Kontrollera att BankID-appen är uppdaterad. Om du inte har BankID-appen måste du installera den och skaffa ett BankID hos din bank. Installera appen från din appbutik eller https://install.bankid.com.',
    en: "Failed to scan the QR code. Start the BankID app and scan the QR code. Check that the BankID app is up to date. If you don't have the BankID app, you need to install it and get a BankID from your bank. Install the app from your app store or https://install.bankid.com.",
  },
  RFA21: { sv: 'Identifiering eller underskrift pågår.', en: 'Identification or signing in progress.' },
  RFA22: { sv: 'Okänt fel. Försök igen.', en: 'Unknown error. Please try again.' },
  RFA23: {
    sv: 'Fotografera och läs av din ID-handling med BankID-appen.',
    en: 'Process your machine-readable travel document using the BankID app.',
  },
} as const;

type RfaKey = keyof typeof RFA;
type Pick = MessagePick<RfaKey>;

const PENDING: Record<string, Pick> = {
  // "Trying to start" only after the app was asked to open on this device; beside a QR, "start the app and scan".
  outstandingTransaction: ({ launch }) => (launch === 'autostart' ? 'RFA13' : launch === 'qr' ? 'RFA1QR' : 'RFA1'),
  noClient: ({ launch }) => (launch === 'qr' ? 'RFA1QR' : 'RFA1'),
  started: ({ mobile }) => (mobile ? 'RFA15B' : 'RFA15A'),
  userMrtd: () => 'RFA23',
  userSign: () => 'RFA9',
};

const FAILED: Record<string, Pick> = {
  expiredTransaction: () => 'RFA8',
  certificateErr: () => 'RFA16',
  userCancel: () => 'RFA6',
  cancelled: () => 'RFA3',
  startFailed: ({ launch }) => (launch === 'autostart' ? 'RFA17A' : 'RFA17B'),
};

/** Unknown or new hint codes get RFA21 while pending and RFA22 once failed; RFA1 beside a QR is still RFA1. */
export const RFA_USER_MESSAGES: UserMessageTable<RfaKey> = {
  appName: 'BankID',
  texts: RFA,
  pending: PENDING,
  failed: FAILED,
  fallback: { pending: 'RFA21', failed: 'RFA22' },
  codes: { RFA1QR: 'RFA1' },
};
