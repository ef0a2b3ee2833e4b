/**
 * The languages the person-facing pages speak (docs/oidc.md, "Languages"): Swedish, English, Norwegian
 * Bokmål, Danish and Finnish. Swedish when nothing asked for matches.
 */
export const LANGUAGES = ['sv', 'en', 'nb', 'da', 'fi'] as const;
export type Language = (typeof LANGUAGES)[number];

// Norwegian without a written standard, and Nynorsk, get Bokmål: the closest we speak.
const ALIASES: Record<string, Language> = { no: 'nb', nn: 'nb' };

/** The language a BCP 47 tag names, if we speak it ("nb-NO" → nb, "no" → nb). */
export function languageOf(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language === primary) ?? ALIASES[primary];
}

// A header is bounded before it is parsed: nothing a browser sends is longer.
const MAX_ACCEPT_LANGUAGE = 500;

/**
 * The first of a space-separated `ui_locales` we speak, else the browser's most preferred of
 * Accept-Language (RFC 9110, 12.5.4), else Swedish.
 */
export function chooseLanguage(uiLocales: unknown, acceptLanguage?: unknown): Language {
  const wanted = typeof uiLocales === 'string' ? uiLocales.split(' ') : [];
  for (const tag of wanted) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return typeof acceptLanguage === 'string' ? (fromAcceptLanguage(acceptLanguage) ?? 'sv') : 'sv';
}

function fromAcceptLanguage(header: string): Language | undefined {
  const ranked = header
    .slice(0, MAX_ACCEPT_LANGUAGE)
    .split(',')
    .map((part, at) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: languageOf(tag), weight: Number.isFinite(weight) ? weight : 0, at };
    })
    .filter((entry) => entry.language !== undefined && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.at - b.at);
  return ranked[0]?.language;
}
