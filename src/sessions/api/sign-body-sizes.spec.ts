import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { assertSignFieldSizes } from './sign-body-sizes.js';

const pointersOf = (body: unknown): string[] => {
  try {
    assertSignFieldSizes(body);
    return [];
  } catch (error) {
    return (error as ValidationProblemException).errors.map((e) => e.pointer);
  }
};

describe(assertSignFieldSizes.name, () => {
  it('should pass bodies at the limits, and leave other shapes to validation', () => {
    expect(pointersOf({ userVisibleData: 'a'.repeat(30_000), userNonVisibleData: 'A'.repeat(200_000) })).toEqual([]);
    expect(pointersOf({ userVisibleData: 42 })).toEqual([]);
    expect(pointersOf(null)).toEqual([]);
  });

  it('should refuse a text over 40,000 base64 characters and hidden data over 200,000, naming both', () => {
    expect(pointersOf({ userVisibleData: 'å'.repeat(15_001), userNonVisibleData: 'A'.repeat(200_001) })).toEqual([
      '/userVisibleData',
      '/userNonVisibleData',
    ]);
  });
});

describe(`${assertSignFieldSizes.name}: what the input guard would read`, () => {
  it('should refuse hidden data that is not base64, or not a string', () => {
    expect(pointersOf({ userNonVisibleData: 'aGFzaA==' })).toEqual([]);
    expect(pointersOf({ userNonVisibleData: "' or 1=1--" })).toEqual(['/userNonVisibleData']);
    expect(pointersOf({ userNonVisibleData: { nested: 'x'.repeat(10) } })).toEqual(['/userNonVisibleData']);
  });

  it('should refuse other fields that together exceed 16 KiB, wherever they are', () => {
    expect(pointersOf({ userVisibleData: 'a'.repeat(30_000), metadata: { pad: 'x'.repeat(1_000) } })).toEqual([]);
    expect(pointersOf({ metadata: { pad: 'x'.repeat(17_000) } })).toEqual(['']);
    expect(pointersOf({ unknown: ['x'.repeat(9_000), 'y'.repeat(9_000)] })).toEqual(['']);
  });
});
