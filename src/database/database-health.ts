import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { migrationsUpToDate } from './migrate.js';
import { statement } from './statement.js';

const ping = statement<[]>('SELECT 1');

/** What the readiness probe asks of the database. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Rejects when the database does not answer. */
  async ping(): Promise<void> {
    await ping.run(this.dataSource);
  }

  migrationsApplied(): Promise<boolean> {
    return migrationsUpToDate(this.dataSource);
  }
}
