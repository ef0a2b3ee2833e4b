import { isSwedishPersonalNumber } from './swedish-personal-number.js';

describe(isSwedishPersonalNumber.name, () => {
  // Skatteverket's published test numbers and the ones this project's tests use.
  it.each(['198112189876', '199001012393', '199001011239', '200001012384'])('should accept %s', (value) => {
    expect(isSwedishPersonalNumber(value)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '198112189875'],
    ['ten digits', '8112189876'],
    ['a dash', '19811218-9876'],
    ['letters', '19811218987a'],
    ['thirteen digits', '1981121898760'],
    ['a number, not text', 198112189876],
    ['an empty string', ''],
  ])('should refuse %s', (_name, value) => {
    expect(isSwedishPersonalNumber(value)).toBe(false);
  });
});
