import type { Language } from '../../common/languages/languages.js';

/**
 * Every sentence the login page and the chooser show, whole in each language (docs/oidc.md,
 * "Languages"): a name or host goes into its place in a sentence, no sentence is built from pieces.
 */
export interface LoginTexts {
  title: string;
  heading: (client: string) => string;
  signTitle: string;
  signHeading: (client: string) => string;
  payTitle: string;
  payHeading: (client: string) => string;
  pickTitle: string;
  pickPrompt: string;
  cancel: string;
  noScript: string;
  problem: string;
  otherBrowser: string;
  returnsTo: (host: string) => string;
  thisDevice: string;
  otherDevice: string;
  continueThere: string;
  awaitReturn: string;
}

export const LOGIN_TEXT: Record<Language, LoginTexts> = {
  sv: {
    title: 'Legitimera dig',
    heading: (client) => `Legitimera dig för att logga in på ${client}`,
    signTitle: 'Skriv under',
    signHeading: (client) => `Skriv under för ${client}`,
    payTitle: 'Godkänn betalningen',
    payHeading: (client) => `Godkänn betalningen till ${client}`,
    pickTitle: 'Välj e-legitimation',
    pickPrompt: 'Välj vilken e-legitimation du vill använda.',
    cancel: 'Avbryt',
    noScript: 'Sidan behöver JavaScript för att visa QR-koden.',
    problem: 'Inloggningen har gått ut eller är ogiltig. Gå tillbaka och försök igen.',
    otherBrowser:
      'Inloggningen startades i en annan webbläsare och kan bara avslutas där. Startade du den inte själv har någon skickat länken till dig: den loggar inte in någon.',
    returnsTo: (host) => `Därefter skickas du till ${host}.`,
    thisDevice: 'Öppna appen på den här enheten',
    otherDevice: 'Appen på en annan enhet: visa QR-kod',
    continueThere: 'Fortsätt till e-legitimationens inloggning',
    awaitReturn: 'Fortsätt i webbläsaren som appen öppnar.',
  },
  en: {
    title: 'Identify yourself',
    heading: (client) => `Identify yourself to log in to ${client}`,
    signTitle: 'Sign',
    signHeading: (client) => `Sign for ${client}`,
    payTitle: 'Approve the payment',
    payHeading: (client) => `Approve the payment to ${client}`,
    pickTitle: 'Choose an e-ID',
    pickPrompt: 'Choose the e-ID you want to use.',
    cancel: 'Cancel',
    noScript: 'This page needs JavaScript to show the QR code.',
    problem: 'The login has expired or is invalid. Go back and try again.',
    otherBrowser:
      'This login was started in another browser and can only finish there. If you did not start it, someone sent you the link: it logs nobody in.',
    returnsTo: (host) => `Afterwards you are sent to ${host}.`,
    thisDevice: 'Open the app on this device',
    otherDevice: 'The app on another device: show a QR code',
    continueThere: "Continue to the e-ID's login",
    awaitReturn: 'Carry on in the browser the app opens.',
  },
  nb: {
    title: 'Identifiser deg',
    heading: (client) => `Identifiser deg for å logge inn på ${client}`,
    signTitle: 'Signer',
    signHeading: (client) => `Signer for ${client}`,
    payTitle: 'Godkjenn betalingen',
    payHeading: (client) => `Godkjenn betalingen til ${client}`,
    pickTitle: 'Velg e-ID',
    pickPrompt: 'Velg hvilken e-ID du vil bruke.',
    cancel: 'Avbryt',
    noScript: 'Siden trenger JavaScript for å vise QR-koden.',
    problem: 'Innloggingen er utløpt eller ugyldig. Gå tilbake og prøv igjen.',
    otherBrowser:
      'Innloggingen ble startet i en annen nettleser og kan bare fullføres der. Hvis du ikke startet den selv, har noen sendt deg lenken: den logger ingen inn.',
    returnsTo: (host) => `Deretter sendes du til ${host}.`,
    thisDevice: 'Åpne appen på denne enheten',
    otherDevice: 'Appen på en annen enhet: vis QR-kode',
    continueThere: 'Fortsett til innloggingen hos e-ID-en',
    awaitReturn: 'Fortsett i nettleseren som appen åpner.',
  },
  da: {
    title: 'Identificér dig',
    heading: (client) => `Identificér dig for at logge ind på ${client}`,
    signTitle: 'Underskriv',
    signHeading: (client) => `Underskriv for ${client}`,
    payTitle: 'Godkend betalingen',
    payHeading: (client) => `Godkend betalingen til ${client}`,
    pickTitle: 'Vælg e-ID',
    pickPrompt: 'Vælg det e-ID, du vil bruge.',
    cancel: 'Annullér',
    noScript: 'Siden skal bruge JavaScript for at vise QR-koden.',
    problem: 'Login er udløbet eller ugyldigt. Gå tilbage, og prøv igen.',
    otherBrowser:
      'Dette login blev startet i en anden browser og kan kun afsluttes der. Hvis du ikke selv startede det, har nogen sendt dig linket: det logger ingen ind.',
    returnsTo: (host) => `Derefter sendes du til ${host}.`,
    thisDevice: 'Åbn appen på denne enhed',
    otherDevice: 'Appen på en anden enhed: vis QR-kode',
    continueThere: 'Fortsæt til login hos e-ID’et',
    awaitReturn: 'Fortsæt i den browser, som appen åbner.',
  },
  fi: {
    title: 'Tunnistaudu',
    heading: (client) => `Tunnistaudu kirjautuaksesi palveluun ${client}`,
    signTitle: 'Allekirjoita',
    signHeading: (client) => `Allekirjoita palvelulle ${client}`,
    payTitle: 'Hyväksy maksu',
    payHeading: (client) => `Hyväksy maksu palvelulle ${client}`,
    pickTitle: 'Valitse tunnistustapa',
    pickPrompt: 'Valitse tunnistustapa, jota haluat käyttää.',
    cancel: 'Peruuta',
    noScript: 'Sivu tarvitsee JavaScriptin QR-koodin näyttämiseen.',
    problem: 'Kirjautuminen on vanhentunut tai virheellinen. Palaa takaisin ja yritä uudelleen.',
    otherBrowser:
      'Kirjautuminen aloitettiin toisessa selaimessa, ja sen voi viedä loppuun vain siellä. Jos et aloittanut sitä itse, joku on lähettänyt sinulle linkin: se ei kirjaa ketään sisään.',
    returnsTo: (host) => `Sen jälkeen sinut ohjataan osoitteeseen ${host}.`,
    thisDevice: 'Avaa sovellus tällä laitteella',
    otherDevice: 'Sovellus toisella laitteella: näytä QR-koodi',
    continueThere: 'Jatka tunnistuspalvelun kirjautumiseen',
    awaitReturn: 'Jatka selaimessa, jonka sovellus avaa.',
  },
};
