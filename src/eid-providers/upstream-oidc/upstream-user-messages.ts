import type { UserMessageTable } from '../user-messages.js';

type Key = 'open' | 'inProgress' | 'cancelled' | 'expired' | 'failed';

/** The words for a session at an upstream OpenID provider, named by its display name (docs/upstream-oidc.md). */
export function upstreamUserMessages(appName: string): UserMessageTable<Key> {
  const always = (key: Key) => () => key;
  return {
    appName,
    texts: {
      open: {
        sv: `Öppna länken för att legitimera dig med ${appName}.`,
        en: `Open the link to identify yourself with ${appName}.`,
        nb: `Åpne lenken for å identifisere deg med ${appName}.`,
        da: `Åbn linket for at identificere dig med ${appName}.`,
        fi: `Avaa linkki ja tunnistaudu tunnistusvälineellä ${appName}.`,
      },
      inProgress: {
        sv: `Legitimering med ${appName} pågår.`,
        en: `Identification with ${appName} is in progress.`,
        nb: `Identifisering med ${appName} pågår.`,
        da: `Identifikation med ${appName} er i gang.`,
        fi: `Tunnistautuminen tunnistusvälineellä ${appName} on käynnissä.`,
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
        sv: 'Legitimeringen misslyckades. Försök igen.',
        en: 'The identification failed. Please try again.',
        nb: 'Identifiseringen mislyktes. Prøv igjen.',
        da: 'Identifikationen mislykkedes. Prøv igen.',
        fi: 'Tunnistautuminen epäonnistui. Yritä uudelleen.',
      },
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
