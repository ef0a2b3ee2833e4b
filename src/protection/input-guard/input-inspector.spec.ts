import { readFileSync } from 'node:fs';
import { detectAttack, inspectRequest, MAX_GUARDED_VALUES } from './input-inspector.js';

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
});

describe(inspectRequest.name, () => {
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
