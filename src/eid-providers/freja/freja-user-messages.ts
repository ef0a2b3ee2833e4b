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
  },
  FREJA_OPENING_APP: { sv: 'Försöker öppna Freja-appen.', en: 'Trying to open the Freja app.' },
  FREJA_APPROVE: {
    sv: 'Godkänn i Freja-appen med din PIN-kod eller biometri.',
    en: 'Approve in the Freja app with your PIN or biometrics.',
  },
  FREJA_IN_PROGRESS: { sv: 'Identifiering eller underskrift med Freja pågår.', en: 'Identification or signing with Freja in progress.' },
  FREJA_DECLINED: { sv: 'Du avböjde i Freja-appen.', en: 'You declined in the Freja app.' },
  FREJA_CANCELLED: { sv: 'Åtgärden avbruten. Försök igen.', en: 'Action cancelled. Please try again.' },
  FREJA_EXPIRED: {
    sv: 'Tiden för att godkänna i Freja-appen gick ut. Försök igen.',
    en: 'The time to approve in the Freja app ran out. Please try again.',
  },
  FREJA_REJECTED: {
    sv: 'Freja avvisade begäran av säkerhetsskäl. Kontakta Frejas support om det händer igen.',
    en: "Freja refused the request for security reasons. Contact Freja's support if it happens again.",
  },
  FREJA_FAILED: { sv: 'Okänt fel. Försök igen.', en: 'Unknown error. Please try again.' },
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
