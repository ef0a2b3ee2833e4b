import type { Language } from '../common/languages/languages.js';

/**
 * `<eid-qr>`'s own words, whole sentences in each language (docs/kiosk.md, "Languages"); `{app}` is
 * the session's e-ID app by name. Served as a module beside the element (kiosk-assets.ts).
 */
export interface EidQrWords {
  connecting: string;
  reconnecting: string;
  invalidLink: string;
  complete: string;
  qrLabel: string;
  open: string;
  showQr: string;
  showLaunch: string;
}

export const EID_QR_WORDS: Record<Language, EidQrWords> = {
  sv: {
    connecting: 'Ansluter…',
    reconnecting: 'Anslutningen bröts. Återansluter…',
    invalidLink: 'Länken till den här skärmen är ogiltig eller har gått ut. Starta en ny legitimering.',
    complete: 'Klart! Du är legitimerad.',
    qrLabel: 'QR-kod för {app}. Öppna {app}-appen och skanna koden.',
    open: 'Öppna {app}',
    showQr: '{app} på en annan enhet? Visa QR-kod',
    showLaunch: '{app} på den här enheten? Öppna {app}',
  },
  en: {
    connecting: 'Connecting…',
    reconnecting: 'Connection lost. Reconnecting…',
    invalidLink: 'The link to this screen is invalid or has expired. Please start a new identification.',
    complete: 'Done! You are identified.',
    qrLabel: 'QR code for {app}. Open the {app} app and scan the code.',
    open: 'Open {app}',
    showQr: '{app} on another device? Show QR code',
    showLaunch: '{app} on this device? Open {app}',
  },
  nb: {
    connecting: 'Kobler til…',
    reconnecting: 'Forbindelsen ble brutt. Kobler til igjen…',
    invalidLink: 'Lenken til denne skjermen er ugyldig eller utløpt. Start en ny identifisering.',
    complete: 'Ferdig! Du er identifisert.',
    qrLabel: 'QR-kode for {app}. Åpne {app}-appen og skann koden.',
    open: 'Åpne {app}',
    showQr: '{app} på en annen enhet? Vis QR-kode',
    showLaunch: '{app} på denne enheten? Åpne {app}',
  },
  da: {
    connecting: 'Forbinder…',
    reconnecting: 'Forbindelsen blev afbrudt. Forbinder igen…',
    invalidLink: 'Linket til denne skærm er ugyldigt eller udløbet. Start en ny identifikation.',
    complete: 'Færdig! Du er identificeret.',
    qrLabel: 'QR-kode til {app}. Åbn {app}-appen, og scan koden.',
    open: 'Åbn {app}',
    showQr: '{app} på en anden enhed? Vis QR-kode',
    showLaunch: '{app} på denne enhed? Åbn {app}',
  },
  fi: {
    connecting: 'Yhdistetään…',
    reconnecting: 'Yhteys katkesi. Yhdistetään uudelleen…',
    invalidLink: 'Linkki tähän näkymään on virheellinen tai vanhentunut. Aloita uusi tunnistautuminen.',
    complete: 'Valmis! Olet tunnistautunut.',
    qrLabel: 'QR-koodi: {app}. Avaa {app}-sovellus ja skannaa koodi.',
    open: 'Avaa {app}',
    showQr: '{app} toisella laitteella? Näytä QR-koodi',
    showLaunch: '{app} tällä laitteella? Avaa {app}',
  },
};
