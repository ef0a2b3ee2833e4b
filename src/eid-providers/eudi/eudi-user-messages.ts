import type { UserMessageTable } from '../user-messages.js';

type Key = 'open' | 'inProgress' | 'cancelled' | 'expired' | 'failed';
const always = (key: Key) => () => key;

/** The words for a session at the EU Digital Identity Wallet (docs/eudi-wallet.md). */
export const EUDI_USER_MESSAGES: UserMessageTable<Key> = {
  appName: 'EU Digital Identity Wallet',
  texts: {
    open: {
      sv: 'Skanna QR-koden med din EU-plånbok för digital identitet, eller öppna länken på den här enheten.',
      en: 'Scan the QR code with your EU Digital Identity Wallet, or open the link on this device.',
    },
    inProgress: { sv: 'Bekräfta i din plånbok att du delar dina uppgifter.', en: 'Confirm in your wallet that you share your details.' },
    cancelled: { sv: 'Åtgärden avbröts.', en: 'Action cancelled.' },
    expired: { sv: 'Tiden gick ut. Försök igen.', en: 'The time ran out. Please try again.' },
    failed: {
      sv: 'Uppgifterna från plånboken kunde inte godtas. Försök igen.',
      en: 'The details from the wallet could not be accepted. Please try again.',
    },
  },
  pending: { outstandingTransaction: always('open'), started: always('inProgress') },
  failed: { userCancel: always('cancelled'), cancelled: always('cancelled'), expiredTransaction: always('expired') },
  fallback: { pending: 'inProgress', failed: 'failed' },
  codes: { open: 'EUDI_OPEN', inProgress: 'EUDI_IN_PROGRESS', cancelled: 'EUDI_CANCELLED', expired: 'EUDI_EXPIRED', failed: 'EUDI_FAILED' },
};
