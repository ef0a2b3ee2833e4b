import type { MessagePick, UserMessageTable } from '../user-messages.js';

/**
 * BankID's recommended user messages (the RFA table of BankID's RP guidelines), picked for a session's
 * state the way those guidelines say: by status, hint code, and how the order was started
 * (docs/bankid.md, docs/same-device.md). The simulator stands in for BankID, so it has these words too.
 * BankID words them in Swedish and English only; the Norwegian, Danish and Finnish are ours, and name
 * the app's buttons in English, the app's language on a phone set to none of its two (docs/providers.md, "Languages").
 */
const RFA = {
  RFA1: {
    sv: 'Starta BankID-appen.',
    en: 'Start your BankID app.',
    nb: 'Start BankID-appen.',
    da: 'Start BankID-appen.',
    fi: 'Käynnistä BankID-sovellus.',
  },
  // RFA1 as BankID words it beside a QR code.
  RFA1QR: {
    sv: 'Starta BankID-appen i din mobil och skanna QR-koden.',
    en: 'Start the BankID app on your phone and scan the QR code.',
    nb: 'Start BankID-appen på mobilen din og skann QR-koden.',
    da: 'Start BankID-appen på din mobil, og scan QR-koden.',
    fi: 'Käynnistä BankID-sovellus puhelimessasi ja skannaa QR-koodi.',
  },
  RFA3: {
    sv: 'Åtgärden avbruten. Försök igen.',
    en: 'Action cancelled. Please try again.',
    nb: 'Handlingen ble avbrutt. Prøv igjen.',
    da: 'Handlingen blev afbrudt. Prøv igen.',
    fi: 'Toiminto keskeytettiin. Yritä uudelleen.',
  },
  RFA6: {
    sv: 'Åtgärden avbruten.',
    en: 'Action cancelled.',
    nb: 'Handlingen ble avbrutt.',
    da: 'Handlingen blev afbrudt.',
    fi: 'Toiminto keskeytettiin.',
  },
  RFA8: {
    sv: 'BankID-appen svarar inte. Kontrollera att den är startad och att du har internetanslutning. Om du inte har något giltigt BankID kan du skaffa ett hos din bank. Försök sedan igen.',
    en: "The BankID app is not responding. Please check that it's started and that you have internet access. If you don't have a valid BankID you can get one from your bank. Try again.",
    nb: 'BankID-appen svarer ikke. Kontroller at den er startet og at du har internettforbindelse. Hvis du ikke har en gyldig BankID, kan du skaffe en hos banken din. Prøv deretter igjen.',
    da: 'BankID-appen svarer ikke. Kontrollér, at den er startet, og at du har internetforbindelse. Hvis du ikke har et gyldigt BankID, kan du få et hos din bank. Prøv derefter igen.',
    fi: 'BankID-sovellus ei vastaa. Tarkista, että se on käynnissä ja että sinulla on internetyhteys. Jos sinulla ei ole voimassa olevaa BankID:tä, voit hankkia sen pankistasi. Yritä sitten uudelleen.',
  },
  RFA9: {
    sv: 'Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under.',
    en: 'Enter your security code in the BankID app and select Identify or Sign.',
    nb: 'Skriv inn sikkerhetskoden din i BankID-appen og velg «Identify» eller «Sign».',
    da: 'Indtast din sikkerhedskode i BankID-appen, og vælg »Identify« eller »Sign«.',
    fi: 'Syötä turvakoodisi BankID-sovellukseen ja valitse ”Identify” tai ”Sign”.',
  },
  RFA13: {
    sv: 'Försöker starta BankID-appen.',
    en: 'Trying to start your BankID app.',
    nb: 'Prøver å starte BankID-appen.',
    da: 'Forsøger at starte BankID-appen.',
    fi: 'Yritetään käynnistää BankID-sovellus.',
  },
  RFA15A: {
    sv: 'Söker efter BankID, det kan ta en liten stund… Om det har gått några sekunder och inget BankID har hittats har du sannolikt inget BankID som går att använda för den aktuella identifieringen/underskriften i den här datorn. Om du har ett BankID-kort, sätt in det i kortläsaren. Om du inte har något BankID kan du skaffa ett hos din bank.',
    en: "Searching for BankID, it may take a little while… If a few seconds have passed and still no BankID has been found, you probably don't have a BankID which can be used for this identification/signing on this computer. If you have a BankID card, please insert it into your card reader. If you don't have a BankID you can get one from your bank.",
    nb: 'Søker etter BankID, det kan ta litt tid… Hvis det har gått noen sekunder og ingen BankID er funnet, har du sannsynligvis ingen BankID som kan brukes til denne identifiseringen/signeringen på denne datamaskinen. Hvis du har et BankID-kort, setter du det inn i kortleseren. Hvis du ikke har noen BankID, kan du skaffe en hos banken din.',
    da: 'Søger efter BankID, det kan tage et øjeblik… Hvis der er gået nogle sekunder, og der stadig ikke er fundet noget BankID, har du sandsynligvis ikke et BankID, der kan bruges til denne identifikation/underskrift på denne computer. Hvis du har et BankID-kort, så sæt det i kortlæseren. Hvis du ikke har et BankID, kan du få et hos din bank.',
    fi: 'Etsitään BankID:tä, tämä voi kestää hetken… Jos muutama sekunti on kulunut eikä BankID:tä ole löytynyt, sinulla ei todennäköisesti ole BankID:tä, jota voi käyttää tähän tunnistautumiseen tai allekirjoitukseen tällä tietokoneella. Jos sinulla on BankID-kortti, aseta se kortinlukijaan. Jos sinulla ei ole BankID:tä, voit hankkia sen pankistasi.',
  },
  RFA15B: {
    sv: 'Söker efter BankID, det kan ta en liten stund… Om det har gått några sekunder och inget BankID har hittats har du sannolikt inget BankID som går att använda för den aktuella identifieringen/underskriften i den här enheten. Om du inte har något BankID kan du skaffa ett hos din bank.',
    en: "Searching for BankID, it may take a little while… If a few seconds have passed and still no BankID has been found, you probably don't have a BankID which can be used for this identification/signing on this device. If you don't have a BankID you can get one from your bank.",
    nb: 'Søker etter BankID, det kan ta litt tid… Hvis det har gått noen sekunder og ingen BankID er funnet, har du sannsynligvis ingen BankID som kan brukes til denne identifiseringen/signeringen på denne enheten. Hvis du ikke har noen BankID, kan du skaffe en hos banken din.',
    da: 'Søger efter BankID, det kan tage et øjeblik… Hvis der er gået nogle sekunder, og der stadig ikke er fundet noget BankID, har du sandsynligvis ikke et BankID, der kan bruges til denne identifikation/underskrift på denne enhed. Hvis du ikke har et BankID, kan du få et hos din bank.',
    fi: 'Etsitään BankID:tä, tämä voi kestää hetken… Jos muutama sekunti on kulunut eikä BankID:tä ole löytynyt, sinulla ei todennäköisesti ole BankID:tä, jota voi käyttää tähän tunnistautumiseen tai allekirjoitukseen tällä laitteella. Jos sinulla ei ole BankID:tä, voit hankkia sen pankistasi.',
  },
  RFA16: {
    sv: 'Det BankID du försöker använda är för gammalt eller spärrat. Använd ett annat BankID eller skaffa ett nytt hos din bank.',
    en: 'The BankID you are trying to use is blocked or too old. Please use another BankID or get a new one from your bank.',
    nb: 'BankID-en du prøver å bruke, er for gammel eller sperret. Bruk en annen BankID eller skaff en ny hos banken din.',
    da: 'Det BankID, du forsøger at bruge, er for gammelt eller spærret. Brug et andet BankID, eller få et nyt hos din bank.',
    fi: 'BankID, jota yrität käyttää, on liian vanha tai estetty. Käytä toista BankID:tä tai hanki uusi pankistasi.',
  },
  RFA17A: {
    sv: 'BankID-appen verkar inte finnas i din dator eller mobil. Installera den och skaffa ett BankID hos din bank. Installera appen från din appbutik eller https://install.bankid.com.',
    en: "The BankID app couldn't be found on your computer or mobile device. Please install it and get a BankID from your bank. Install the app from your app store or https://install.bankid.com.",
    nb: 'BankID-appen ser ikke ut til å finnes på datamaskinen eller mobilen din. Installer den og skaff en BankID hos banken din. Installer appen fra appbutikken din eller https://install.bankid.com.',
    da: 'BankID-appen ser ikke ud til at findes på din computer eller mobil. Installér den, og få et BankID hos din bank. Installér appen fra din appbutik eller https://install.bankid.com.',
    fi: 'BankID-sovellusta ei löytynyt tietokoneeltasi tai mobiililaitteeltasi. Asenna se ja hanki BankID pankistasi. Asenna sovellus sovelluskaupasta tai osoitteesta https://install.bankid.com.',
  },
  RFA17B: {
    sv: 'Misslyckades att läsa av QR-koden. Starta BankID-appen och läs av QR-koden. Kontrollera att BankID-appen är uppdaterad. Om du inte har BankID-appen måste du installera den och skaffa ett BankID hos din bank. Installera appen från din appbutik eller https://install.bankid.com.',
    en: "Failed to scan the QR code. Start the BankID app and scan the QR code. Check that the BankID app is up to date. If you don't have the BankID app, you need to install it and get a BankID from your bank. Install the app from your app store or https://install.bankid.com.",
    nb: 'Kunne ikke lese QR-koden. Start BankID-appen og skann QR-koden. Kontroller at BankID-appen er oppdatert. Hvis du ikke har BankID-appen, må du installere den og skaffe en BankID hos banken din. Installer appen fra appbutikken din eller https://install.bankid.com.',
    da: 'QR-koden kunne ikke scannes. Start BankID-appen, og scan QR-koden. Kontrollér, at BankID-appen er opdateret. Hvis du ikke har BankID-appen, skal du installere den og få et BankID hos din bank. Installér appen fra din appbutik eller https://install.bankid.com.',
    fi: 'QR-koodin lukeminen epäonnistui. Käynnistä BankID-sovellus ja skannaa QR-koodi. Tarkista, että BankID-sovellus on päivitetty. Jos sinulla ei ole BankID-sovellusta, asenna se ja hanki BankID pankistasi. Asenna sovellus sovelluskaupasta tai osoitteesta https://install.bankid.com.',
  },
  RFA21: {
    sv: 'Identifiering eller underskrift pågår.',
    en: 'Identification or signing in progress.',
    nb: 'Identifisering eller signering pågår.',
    da: 'Identifikation eller underskrift er i gang.',
    fi: 'Tunnistautuminen tai allekirjoitus on käynnissä.',
  },
  RFA22: {
    sv: 'Okänt fel. Försök igen.',
    en: 'Unknown error. Please try again.',
    nb: 'Ukjent feil. Prøv igjen.',
    da: 'Ukendt fejl. Prøv igen.',
    fi: 'Tuntematon virhe. Yritä uudelleen.',
  },
  RFA23: {
    sv: 'Fotografera och läs av din ID-handling med BankID-appen.',
    en: 'Process your machine-readable travel document using the BankID app.',
    nb: 'Fotografer og les av ID-dokumentet ditt med BankID-appen.',
    da: 'Fotografér og aflæs dit ID-dokument med BankID-appen.',
    fi: 'Kuvaa ja lue henkilöllisyysasiakirjasi BankID-sovelluksella.',
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
