import { readFileSync } from 'node:fs';
import { detectAttack } from './input-inspector.js';

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
