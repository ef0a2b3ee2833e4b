import { htmlDocument, pageHeaders } from '../../common/html/html-page.js';
import { languageOf, type Language } from '../../common/languages/languages.js';

export type DonePageState = 'complete' | 'failed' | 'invalid';

/** The page's sentences in each language, for every state (docs/upstream-oidc.md, "The sign-in"). */
export const DONE_PAGE_TEXT: Record<Language, Record<DonePageState, { heading: string; body: string }>> = {
  sv: {
    complete: { heading: 'Klart', body: 'Du är legitimerad. Du kan gå tillbaka till tjänsten du kom från.' },
    failed: { heading: 'Inte legitimerad', body: 'Legitimeringen avbröts eller misslyckades. Gå tillbaka och försök igen.' },
    invalid: { heading: 'Länken gäller inte', body: 'Den här länken har redan använts eller är inte giltig.' },
  },
  en: {
    complete: { heading: 'Done', body: 'You are identified. You can go back to the service you came from.' },
    failed: { heading: 'Not identified', body: 'The identification was cancelled or failed. Go back and try again.' },
    invalid: { heading: 'This link is not valid', body: 'This link was used already or is not valid.' },
  },
  nb: {
    complete: { heading: 'Ferdig', body: 'Du er identifisert. Du kan gå tilbake til tjenesten du kom fra.' },
    failed: { heading: 'Ikke identifisert', body: 'Identifiseringen ble avbrutt eller mislyktes. Gå tilbake og prøv igjen.' },
    invalid: { heading: 'Lenken er ikke gyldig', body: 'Denne lenken er allerede brukt eller er ikke gyldig.' },
  },
  da: {
    complete: { heading: 'Færdig', body: 'Du er identificeret. Du kan gå tilbage til tjenesten, du kom fra.' },
    failed: { heading: 'Ikke identificeret', body: 'Identifikationen blev afbrudt eller mislykkedes. Gå tilbage og prøv igen.' },
    invalid: { heading: 'Linket er ikke gyldigt', body: 'Dette link er allerede brugt eller er ikke gyldigt.' },
  },
  fi: {
    complete: { heading: 'Valmis', body: 'Sinut on tunnistettu. Voit palata palveluun, josta tulit.' },
    failed: { heading: 'Tunnistus ei onnistunut', body: 'Tunnistus keskeytettiin tai epäonnistui. Palaa takaisin ja yritä uudelleen.' },
    invalid: { heading: 'Linkki ei ole voimassa', body: 'Tämä linkki on jo käytetty tai se ei ole voimassa.' },
  },
};

const BY_COUNTRY: Record<string, Language> = { SE: 'sv', NO: 'nb', DK: 'da', FI: 'fi' };

/**
 * The first of the launch link's `ui_locales` we speak, else the browser's first language we have
 * (Accept-Language in its order), else the upstream country's, else English (docs/upstream-oidc.md).
 */
export function donePageLanguage(acceptLanguage: string | undefined, country: string | undefined, uiLocales?: string): Language {
  for (const tag of (uiLocales ?? '').split(' ').slice(0, 5)) {
    const language = languageOf(tag);
    if (language) return language;
  }
  // Split on commas only: no pattern to backtrack on a long header; 20 entries are plenty.
  for (const entry of (acceptLanguage ?? '').slice(0, 500).split(',').slice(0, 20)) {
    const language = languageOf(entry.split(';')[0]);
    if (language) return language;
  }
  return (country && BY_COUNTRY[country]) || 'en';
}

/** A small static page: no script, no style, nothing from the request in it. */
export function donePage(state: DonePageState, language: Language): string {
  const { heading, body } = DONE_PAGE_TEXT[language][state];
  return htmlDocument({
    language,
    title: heading,
    body: `<main id="outcome" data-state="${state}"><h1>${heading}</h1><p>${body}</p></main>`,
  });
}

export const DONE_PAGE_HEADERS: Record<string, string> = pageHeaders();
