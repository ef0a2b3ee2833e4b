import { randomUUID } from 'node:crypto';
import { Column, DataSource, Entity, PrimaryColumn, type ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { EntityInsert } from './entity-insert.js';

// Every column type the service's entities use, and the forms TypeORM's driver converts.
@Entity('every_type')
class EveryType {
  @PrimaryColumn('uuid') id: string;
  @Column('text') text: string;
  @Column('varchar', { nullable: true }) varchar: string | null;
  @Column('bytea') bytes: Buffer;
  @Column('timestamptz') at: Date | string;
  @Column('timestamptz', { nullable: true }) until: Date | string | null;
  @Column('integer') count: number;
  @Column('smallint') small: number;
  @Column('bigint') big: string;
  @Column('boolean') flag: boolean;
  @Column('jsonb', { nullable: true }) details: object | null;
  @Column('simple-json') simple: object;
  @Column('text', { transformer: { to: (value: string) => value.toUpperCase(), from: (value: string) => value } }) shouted: string;
}

// As the simulator's orders number their insertion: an identity the database makes, never written.
@Entity('with_identity')
class WithIdentity {
  @PrimaryColumn('text') name: string;
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false }) seq: string;
}

function sampleOf(column: ColumnMetadata, variant: number): unknown {
  if (variant === 2 && column.isNullable) return null;
  switch (column.type) {
    case 'uuid':
      return randomUUID();
    case 'bytea':
      return Buffer.from([variant, 0, 255]);
    case 'timestamptz':
      return variant === 1 ? '2026-12-08T10:11:12.345Z' : new Date(1_796_000_000_000 + variant);
    case 'integer':
    case 'smallint':
      return 7 + variant;
    case 'bigint':
      return String(9_007_199_254_740_993n + BigInt(variant));
    case 'boolean':
      return variant === 0;
    case 'jsonb':
    case 'simple-json':
      return { variant, nested: ['a', { b: null }] };
    default:
      return `value ${variant} of ${column.propertyName}`;
  }
}

describe('EntityInsert', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    // Metadata only: nothing connects.
    dataSource = new DataSource({ type: 'postgres', entities: [EveryType, WithIdentity] });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  });

  it.each([EveryType, WithIdentity])('should write every column of %p as TypeORM’s driver prepares it', (entity) => {
    const insert = new EntityInsert<ObjectLiteral>(dataSource, entity);
    const columns = dataSource.getMetadata(entity).columns.filter((column) => column.isInsert);
    for (const variant of [0, 1, 2]) {
      const row = Object.fromEntries(columns.map((column) => [column.propertyName, sampleOf(column, variant)]));
      const driverValues = columns.map((column): unknown => dataSource.driver.preparePersistentValue(column.getEntityValue(row), column));
      expect(insert.valuesOf(row)).toEqual(driverValues);
    }
  });

  it('should convert what the driver converts: a date given as text, JSON, a transformed value', () => {
    const insert = new EntityInsert<ObjectLiteral>(dataSource, EveryType);
    const names = dataSource
      .getMetadata(EveryType)
      .columns.filter((column) => column.isInsert)
      .map((column) => column.propertyName);
    const values = insert.valuesOf({ at: '2026-12-08T10:11:12.345Z', details: { a: 1 }, simple: [1], shouted: 'quiet' });
    expect(values[names.indexOf('at')]).toEqual(new Date('2026-12-08T10:11:12.345Z'));
    expect(values[names.indexOf('details')]).toBe('{"a":1}');
    expect(values[names.indexOf('simple')]).toBe('[1]');
    expect(values[names.indexOf('shouted')]).toBe('QUIET');
  });

  it('should leave a database-generated identity to the database', () => {
    expect(new EntityInsert(dataSource, WithIdentity).sqlFor(1)).toBe('INSERT INTO "with_identity" ("name") VALUES ($1)');
  });
});
