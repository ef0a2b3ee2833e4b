import { LANGUAGES } from '../common/languages/languages.js';
import { EID_QR_WORDS } from './eid-qr-words.js';
import { KIOSK_TEXT } from './kiosk-page.js';

// Every language has every text, none empty, none left in English; a text about the app keeps its {app}.
describe.each([
  ['the kiosk page', KIOSK_TEXT as unknown as Record<string, Record<string, string>>],
  ['<eid-qr>', EID_QR_WORDS as unknown as Record<string, Record<string, string>>],
])('The texts of %s', (_, table) => {
  const keys = Object.keys(table.sv).sort();
  it('should be in exactly the five languages', () => {
    expect(Object.keys(table).sort()).toEqual([...LANGUAGES].sort());
  });
  it.each(LANGUAGES.filter((language) => language !== 'en'))('should have every text in %s', (language) => {
    expect(Object.keys(table[language]).sort()).toEqual(keys);
    for (const key of keys) {
      const text = table[language][key];
      expect(text.trim()).not.toBe('');
      expect({ key, text }).not.toEqual({ key, text: table.en[key] });
      expect(text.includes('{app}')).toBe(table.en[key].includes('{app}'));
    }
  });
});
