import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { migrationsUpToDate } from './migrate.js';

/** What the readiness probe asks of the database. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Rejects when the database does not answer. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  migrationsApplied(): Promise<boolean> {
    return migrationsUpToDate(this.dataSource);
  }
}
