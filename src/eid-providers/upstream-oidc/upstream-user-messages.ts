import type { UserMessageTable } from '../user-messages.js';

type Key = 'open' | 'inProgress' | 'cancelled' | 'expired' | 'failed';

/** The words for a session at an upstream OpenID provider, named by its display name (docs/upstream-oidc.md). */
export function upstreamUserMessages(appName: string): UserMessageTable<Key> {
  const always = (key: Key) => () => key;
  return {
    appName,
    texts: {
      open: { sv: `Öppna länken för att legitimera dig med ${appName}.`, en: `Open the link to identify yourself with ${appName}.` },
      inProgress: { sv: `Legitimering med ${appName} pågår.`, en: `Identification with ${appName} is in progress.` },
      cancelled: { sv: 'Åtgärden avbröts.', en: 'Action cancelled.' },
      expired: { sv: 'Tiden gick ut. Försök igen.', en: 'The time ran out. Please try again.' },
      failed: { sv: 'Legitimeringen misslyckades. Försök igen.', en: 'The identification failed. Please try again.' },
    },
    // A backchannel request (phone channel) has no link to open: the upstream reaches the person itself.
    pending: { outstandingTransaction: ({ launch }) => (launch === 'phone' ? 'inProgress' : 'open'), started: always('inProgress') },
    failed: { userCancel: always('cancelled'), cancelled: always('cancelled'), expiredTransaction: always('expired') },
    fallback: { pending: 'inProgress', failed: 'failed' },
    codes: {
      open: 'OIDC_OPEN',
      inProgress: 'OIDC_IN_PROGRESS',
      cancelled: 'OIDC_CANCELLED',
      expired: 'OIDC_EXPIRED',
      failed: 'OIDC_FAILED',
    },
  };
}
