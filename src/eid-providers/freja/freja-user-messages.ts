import type { MessagePick, UserMessageTable } from '../user-messages.js';

/**
 * Freja's words for a session's state (docs/freja.md, "What the user is told"). Freja publishes no
 * table of recommended messages as BankID does, so these follow the flow its documentation describes:
 * open the Freja app, scan the code or let the link open the app, approve with PIN or biometrics.
 */
export const FREJA_MESSAGES = {
  FREJA_SCAN_QR: {
    sv: 'Öppna Freja-appen i din mobil, tryck på skanna och skanna QR-koden.',
    en: 'Open the Freja app on your phone, tap Scan and scan the QR code.',
    nb: 'Åpne Freja-appen på mobilen din, trykk på Skann og skann QR-koden.',
    da: 'Åbn Freja-appen på din mobil, tryk på Scan, og scan QR-koden.',
    fi: 'Avaa Freja-sovellus puhelimessasi, napauta Skannaa ja skannaa QR-koodi.',
  },
  FREJA_OPENING_APP: {
    sv: 'Försöker öppna Freja-appen.',
    en: 'Trying to open the Freja app.',
    nb: 'Prøver å åpne Freja-appen.',
    da: 'Forsøger at åbne Freja-appen.',
    fi: 'Yritetään avata Freja-sovellus.',
  },
  FREJA_APPROVE: {
    sv: 'Godkänn i Freja-appen med din PIN-kod eller biometri.',
    en: 'Approve in the Freja app with your PIN or biometrics.',
    nb: 'Godkjenn i Freja-appen med PIN-koden din eller biometri.',
    da: 'Godkend i Freja-appen med din pinkode eller biometri.',
    fi: 'Hyväksy Freja-sovelluksessa PIN-koodillasi tai biometriikalla.',
  },
  FREJA_IN_PROGRESS: {
    sv: 'Identifiering eller underskrift med Freja pågår.',
    en: 'Identification or signing with Freja in progress.',
    nb: 'Identifisering eller signering med Freja pågår.',
    da: 'Identifikation eller underskrift med Freja er i gang.',
    fi: 'Tunnistautuminen tai allekirjoitus Frejalla on käynnissä.',
  },
  FREJA_DECLINED: {
    sv: 'Du avböjde i Freja-appen.',
    en: 'You declined in the Freja app.',
    nb: 'Du avslo i Freja-appen.',
    da: 'Du afviste i Freja-appen.',
    fi: 'Hylkäsit pyynnön Freja-sovelluksessa.',
  },
  FREJA_CANCELLED: {
    sv: 'Åtgärden avbruten. Försök igen.',
    en: 'Action cancelled. Please try again.',
    nb: 'Handlingen ble avbrutt. Prøv igjen.',
    da: 'Handlingen blev afbrudt. Prøv igen.',
    fi: 'Toiminto keskeytettiin. Yritä uudelleen.',
  },
  FREJA_EXPIRED: {
    sv: 'Tiden för att godkänna i Freja-appen gick ut. Försök igen.',
    en: 'The time to approve in the Freja app ran out. Please try again.',
    nb: 'Tiden for å godkjenne i Freja-appen gikk ut. Prøv igjen.',
    da: 'Tiden til at godkende i Freja-appen udløb. Prøv igen.',
    fi: 'Aika hyväksyä Freja-sovelluksessa päättyi. Yritä uudelleen.',
  },
  FREJA_REJECTED: {
    sv: 'Freja avvisade begäran av säkerhetsskäl. Kontakta Frejas support om det händer igen.',
    en: "Freja refused the request for security reasons. Contact Freja's support if it happens again.",
    nb: 'Freja avviste forespørselen av sikkerhetsgrunner. Kontakt Frejas kundestøtte hvis det skjer igjen.',
    da: 'Freja afviste anmodningen af sikkerhedsgrunde. Kontakt Frejas support, hvis det sker igen.',
    fi: 'Freja hylkäsi pyynnön turvallisuussyistä. Ota yhteyttä Frejan tukeen, jos näin käy uudelleen.',
  },
  FREJA_FAILED: {
    sv: 'Okänt fel. Försök igen.',
    en: 'Unknown error. Please try again.',
    nb: 'Ukjent feil. Prøv igjen.',
    da: 'Ukendt fejl. Prøv igen.',
    fi: 'Tuntematon virhe. Yritä uudelleen.',
  },
} as const;

export type FrejaMessageCode = keyof typeof FREJA_MESSAGES;

type Pick = MessagePick<FrejaMessageCode>;

// The hint codes a Freja session can have (docs/freja.md, "Statuses"); any other gets the generic message.
const PENDING: Record<string, Pick> = {
  outstandingTransaction: ({ launch }) => (launch === 'autostart' ? 'FREJA_OPENING_APP' : 'FREJA_SCAN_QR'),
  started: () => 'FREJA_APPROVE',
};

const FAILED: Record<string, Pick> = {
  userCancel: () => 'FREJA_DECLINED',
  cancelled: () => 'FREJA_CANCELLED',
  expiredTransaction: () => 'FREJA_EXPIRED',
  providerRejected: () => 'FREJA_REJECTED',
};

/** Freja's table for the port: the app is "Freja" on the button and the kiosk's heading. */
export const FREJA_USER_MESSAGES: UserMessageTable<FrejaMessageCode> = {
  appName: 'Freja',
  texts: FREJA_MESSAGES,
  pending: PENDING,
  failed: FAILED,
  fallback: { pending: 'FREJA_IN_PROGRESS', failed: 'FREJA_FAILED' },
};
