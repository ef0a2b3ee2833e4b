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
      nb: 'Skann QR-koden med EU-lommeboken din for digital identitet, eller åpne lenken på denne enheten.',
      da: 'Scan QR-koden med din EU-tegnebog til digital identitet, eller åbn linket på denne enhed.',
      fi: 'Skannaa QR-koodi EU:n digitaalisen identiteetin lompakollasi tai avaa linkki tällä laitteella.',
    },
    inProgress: {
      sv: 'Bekräfta i din plånbok att du delar dina uppgifter.',
      en: 'Confirm in your wallet that you share your details.',
      nb: 'Bekreft i lommeboken at du deler opplysningene dine.',
      da: 'Bekræft i din tegnebog, at du deler dine oplysninger.',
      fi: 'Vahvista lompakossasi, että jaat tietosi.',
    },
    cancelled: {
      sv: 'Åtgärden avbröts.',
      en: 'Action cancelled.',
      nb: 'Handlingen ble avbrutt.',
      da: 'Handlingen blev afbrudt.',
      fi: 'Toiminto keskeytettiin.',
    },
    expired: {
      sv: 'Tiden gick ut. Försök igen.',
      en: 'The time ran out. Please try again.',
      nb: 'Tiden gikk ut. Prøv igjen.',
      da: 'Tiden udløb. Prøv igen.',
      fi: 'Aika päättyi. Yritä uudelleen.',
    },
    failed: {
      sv: 'Uppgifterna från plånboken kunde inte godtas. Försök igen.',
      en: 'The details from the wallet could not be accepted. Please try again.',
      nb: 'Opplysningene fra lommeboken kunne ikke godtas. Prøv igjen.',
      da: 'Oplysningerne fra tegnebogen kunne ikke godkendes. Prøv igen.',
      fi: 'Lompakon tietoja ei voitu hyväksyä. Yritä uudelleen.',
    },
  },
  pending: { outstandingTransaction: always('open'), started: always('inProgress') },
  failed: { userCancel: always('cancelled'), cancelled: always('cancelled'), expiredTransaction: always('expired') },
  fallback: { pending: 'inProgress', failed: 'failed' },
  codes: { open: 'EUDI_OPEN', inProgress: 'EUDI_IN_PROGRESS', cancelled: 'EUDI_CANCELLED', expired: 'EUDI_EXPIRED', failed: 'EUDI_FAILED' },
};
