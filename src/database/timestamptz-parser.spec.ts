import pg from 'pg';
import { parseTimestamptz } from './timestamptz-parser.js';

const nodePostgres = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
const same = (text: string) => expect(parseTimestamptz(text)).toEqual(nodePostgres(text));

describe(parseTimestamptz.name, () => {
  it('should read UTC timestamps as node-postgres does, with 0 to 6 fraction digits', () => {
    for (const text of [
      '2026-12-07 08:42:04+00',
      '2026-12-07 08:42:04.5+00',
      '2026-12-07 08:42:04.29+00',
      '2026-12-07 08:42:04.123+00',
      '2026-12-07 08:42:04.1234+00',
      '2026-12-07 08:42:04.999999+00',
      '2026-02-28 23:59:59.000001+00',
      '1970-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999+00',
    ])
      same(text);
  });

  it('should read every millisecond and random instants alike', () => {
    for (let ms = 0; ms < 1000; ms++) same(`2026-12-07 08:42:04.${String(ms).padStart(3, '0').replace(/0+$/, '') || '0'}+00`);
    for (let i = 0; i < 2000; i++) {
      const iso = new Date(Math.floor(Math.random() * 8e12)).toISOString();
      same(`${iso.slice(0, 10)} ${iso.slice(11, 23)}+00`);
    }
  });

  it("should hand every other form to node-postgres's parser", () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-12-07 08:42:04+02',
      '2026-12-07 08:42:04.123-05:30',
      '0099-01-01 00:00:00+00',
      '0999-01-01 00:00:00+00',
      '2026-12-07 08:42:04+00 BC',
      '12026-12-07 08:42:04+00',
      '2026-12-07 08:42:04.1234567+00',
      '2026-12-07T08:42:04+00',
      '2026-12-07 08:42:0x+00',
      '2026-12-07 08:42:04.12a+00',
    ])
      same(text);
  });
});
