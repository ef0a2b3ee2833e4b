import { readFileSync } from 'node:fs';
import { detectAttack, inspectRequest, MAX_GUARDED_CHARACTERS, MAX_GUARDED_VALUES } from './input-inspector.js';

// test/fixtures/guard holds the corpora; lines starting with "# " are comments.
const corpus = (name: string): string[] =>
  readFileSync(new URL(`../../../test/fixtures/guard/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0 && !line.startsWith('# '));

describe(detectAttack.name, () => {
  const attacks = corpus('attacks.txt');
  const benign = corpus('benign.txt');

  it('should detect at least 99% of the attack corpus', () => {
    const missed = attacks.filter((payload) => detectAttack(payload) === null);
    expect(attacks.length).toBeGreaterThanOrEqual(200);
    expect(missed).toEqual([]);
  });

  it('should let at least 99% of the benign corpus through', () => {
    const refused = benign.filter((text) => detectAttack(text) !== null);
    expect(benign.length).toBeGreaterThanOrEqual(200);
    expect(refused).toEqual([]);
  });

  it('should read a run of plus signs as one space, so padding cannot push a statement past a bounded window', () => {
    expect(detectAttack(`1 and cast(${'+'.repeat(100)}password as int)=1`)).toBe('sql_injection');
  });
});

describe(inspectRequest.name, () => {
  it(`should refuse a request whose strings to inspect hold more than ${MAX_GUARDED_CHARACTERS} characters`, () => {
    const prose = (length: number) => 'a b '.repeat(length / 4);
    expect(inspectRequest({ url: '/x', body: { a: prose(MAX_GUARDED_CHARACTERS / 2), b: prose(MAX_GUARDED_CHARACTERS / 2) } })).toBeNull();
    expect(inspectRequest({ url: '/x', body: { a: prose(MAX_GUARDED_CHARACTERS / 2), b: prose(MAX_GUARDED_CHARACTERS / 2 + 4) } })).toEqual(
      {
        category: 'too_much_text',
        part: 'body',
      },
    );
    // Plain strings (ids, base64 without + or /) need no signatures and do not count.
    expect(inspectRequest({ url: '/x', body: { a: 'A'.repeat(4 * MAX_GUARDED_CHARACTERS) } })).toBeNull();
  });

  it('should not read top-level fields marked inert, and read them anywhere else', () => {
    const inertBodyFields = new Set(['hidden']);
    expect(inspectRequest({ url: '/x', body: { hidden: '/etc/passwd/' }, inertBodyFields })).toBeNull();
    expect(inspectRequest({ url: '/x', body: { hidden: '/etc/passwd/' } })).toEqual({ category: 'path_traversal', part: 'body' });
    expect(inspectRequest({ url: '/x', body: { other: { hidden: '/etc/passwd/' } }, inertBodyFields })).toEqual({
      category: 'path_traversal',
      part: 'body',
    });
  });

  it(`should refuse a request with more than ${MAX_GUARDED_VALUES} strings that need the signatures`, () => {
    const strings = (n: number) => Array.from({ length: n }, (_, i) => `item ${i}`);
    expect(inspectRequest({ url: '/x', body: strings(MAX_GUARDED_VALUES) })).toBeNull();
    expect(inspectRequest({ url: '/x', body: strings(MAX_GUARDED_VALUES + 1) })).toEqual({ category: 'too_many_values', part: 'body' });
  });

  it('should not count plain values (ids, numbers, e-mail addresses) against that cap', () => {
    expect(inspectRequest({ url: '/x', body: Array.from({ length: 5000 }, (_, i) => `id-${i}@example.com`) })).toBeNull();
  });

  it('should still read SQL comments as spaces when some comment is never closed', () => {
    expect(detectAttack("x' union/**/select 1,2 /* never closed")).toBe('sql_injection');
    expect(detectAttack('a /* b /* c /* d')).toBeNull();
  });
});
