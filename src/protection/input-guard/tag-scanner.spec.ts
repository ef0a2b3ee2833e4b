import { withinOneTag } from './tag-scanner.js';

describe(withinOneTag.name, () => {
  const handler = withinOneTag('<[a-z]', String.raw`[\s/]on[a-z]+\s*=`);
  const scriptUrl = withinOneTag('<[a-z]', String.raw`\bhref\s*=`, 'javascript:');

  it('should find the token inside a tag, through any other `<` in it', () => {
    expect(handler.test('<img src=x onerror=alert(1)>')).toBe(true);
    expect(handler.test('<a title="<" onclick=x>')).toBe(true);
    expect(handler.test('<svg/onload=x')).toBe(true);
  });

  it('should not find it outside a tag', () => {
    expect(handler.test('<b>bold</b> onclick=x')).toBe(false);
    expect(handler.test('2 < 3 onclick=x')).toBe(false);
  });

  it('should want both parts, in order, within one tag', () => {
    expect(scriptUrl.test('<a href="javascript:alert(1)">')).toBe(true);
    expect(scriptUrl.test('<a title=javascript: href=x>')).toBe(false);
    expect(scriptUrl.test('<a href=x> javascript:')).toBe(false);
  });
});
