import { chooseLanguage, languageOf } from './languages.js';

describe(chooseLanguage.name, () => {
  it.each([
    ['fi sv', undefined, 'fi'],
    ['de nb-NO', undefined, 'nb'],
    ['no', undefined, 'nb'],
    ['DA-dk', 'fi', 'da'],
    [undefined, 'de-DE, fi;q=0.8, en;q=0.9', 'en'],
    [undefined, 'da;q=0.5, nn;q=0.5', 'da'],
    ['de', 'en;q=0, fi', 'fi'],
    [undefined, 'de, fr', 'sv'],
    [undefined, undefined, 'sv'],
    [['en'], 'x;q=abc', 'sv'],
  ])('should choose from ui_locales %p and Accept-Language %p: %s', (uiLocales, accept, expected) => {
    expect(chooseLanguage(uiLocales, accept)).toBe(expected);
  });

  it('should ignore what follows the bound of a long header', () => {
    expect(chooseLanguage(undefined, `${'x-'.repeat(300)}, fi`)).toBe('sv');
    expect(languageOf('')).toBeUndefined();
  });
});
