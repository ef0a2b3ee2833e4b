import { decodedForms, fold, percentDecode, unescapeUnicode } from './decoded-forms.js';

describe(decodedForms.name, () => {
  it.each([
    ['URL encoding', '%3Cscript%3E', '<script>'],
    ['double URL encoding', '%253Cscript%253E', '<script>'],
    ['triple URL encoding', '%25252e%25252e%25252f', '../'],
    ['overlong UTF-8', '%c0%ae%c0%ae%c0%af', '../'],
    ['three-byte overlong UTF-8', '%e0%80%ae%e0%80%ae/', '../'],
    ['\\u escapes', '\\u003cscript\\u003e', '<script>'],
    ['%u escapes', '%u0027%u0020or', "' or"],
    ['HTML entities, named and numeric', '&lt;img&#32;src&#x3d;x&gt;', '<img src=x>'],
    ['HTML numeric entities without semicolons', '&#0000106&#0000097va', 'java'],
    ['full-width characters', '＜ＳＣＲＩＰＴ＞', '<script>'],
    ['look-alike slashes', '..\u2215..\u2216', '../..\\'],
    ['NUL bytes', '<scr\0ipt>', '<script>'],
  ])('should see through %s', (_name, sent, expected) => {
    expect(decodedForms(sent)).toContain(expected);
  });

  it('should keep the form as sent, folded', () => {
    expect(decodedForms('Select Dental AB')).toEqual(['select dental ab']);
  });

  it('should read + as a space only where a query decoder would', () => {
    expect(decodedForms('1+union', { plusIsSpace: true })).toContain('1 union');
    expect(decodedForms('a+b@example.com')).toEqual(['a+b@example.com']);
  });
});

describe(percentDecode.name, () => {
  it('should leave malformed escapes and non-UTF-8 bytes readable instead of throwing', () => {
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%zz%41')).toBe('%zzA');
    expect(percentDecode('%ff')).toBe('\u00ff');
  });
});

describe(unescapeUnicode.name, () => {
  it('should decode \\u{…} and \\x escapes', () => {
    expect(unescapeUnicode('\\u{3c}\\x3e')).toBe('<>');
  });
});

describe(fold.name, () => {
  it('should lower-case after NFKC', () => {
    expect(fold('ＵＮＩＯＮ Ｓelect')).toBe('union select');
  });
});
