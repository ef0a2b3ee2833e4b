import { LANGUAGES } from '../../common/languages/languages.js';
import { DONE_PAGE_TEXT, donePage, donePageLanguage } from './upstream-done-page.js';

describe(donePageLanguage.name, () => {
  it.each([
    ['nb-NO,nb;q=0.9,en;q=0.8', 'FI', 'nb'],
    ['no', undefined, 'nb'],
    ['de-DE, da;q=0.5', undefined, 'da'],
    ['de-DE', 'FI', 'fi'],
    [undefined, 'SE', 'sv'],
    [undefined, 'DE', 'en'],
    [`${'x,'.repeat(10_000)}fi`, undefined, 'en'],
  ])('should pick from %j and country %s: %s', (header, country, language) => {
    expect(donePageLanguage(header, country)).toBe(language);
  });

  it("should take the launch link's ui_locales before the browser's languages", () => {
    expect(donePageLanguage('sv-SE', 'SE', 'de fi')).toBe('fi');
    expect(donePageLanguage('sv-SE', 'SE', 'de')).toBe('sv');
  });
});

describe(donePage.name, () => {
  it('should say each outcome in the language chosen', () => {
    expect(donePage('complete', 'fi')).toContain('Sinut on tunnistettu');
    expect(donePage('failed', 'da')).toContain('Ikke identificeret');
    expect(donePage('invalid', 'sv')).toContain('Länken gäller inte');
  });
});

describe('the done page texts', () => {
  it.each(LANGUAGES)('should say every state in %s, none left in English', (language) => {
    expect(Object.keys(DONE_PAGE_TEXT).sort()).toEqual([...LANGUAGES].sort());
    for (const state of ['complete', 'failed', 'invalid'] as const) {
      const { heading, body } = DONE_PAGE_TEXT[language][state];
      expect(heading.trim()).not.toBe('');
      expect(body.trim()).not.toBe('');
      if (language !== 'en') expect(body).not.toBe(DONE_PAGE_TEXT.en[state].body);
    }
  });
});
