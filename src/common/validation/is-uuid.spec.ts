import { randomUUID } from 'node:crypto';
import { isUuid } from './is-uuid.js';

describe('isUuid', () => {
  it.each([randomUUID(), randomUUID().toUpperCase(), '00000000-0000-4000-8000-000000000000'])('should accept %s', (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    '',
    'not-a-uuid',
    '00000000-0000-4000-8000-00000000000',
    '00000000-0000-4000-8000-0000000000000',
    ` ${randomUUID()}`,
    '0000000g-0000-4000-8000-000000000000',
  ])('should refuse %j', (value) => {
    expect(isUuid(value)).toBe(false);
  });
});
