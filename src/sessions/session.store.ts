import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { PendingRow } from '../database/entity-insert.js';
import { CoalescingWriter } from '../database/coalescing-writer.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { PreparedSelect } from '../database/prepared-select.js';
import { inOneTransaction } from '../database/unit-of-work.js';
import { Session } from './session.entity.js';
import {
  changedSinceSql,
  claimDueSql,
  claimForCollectSql,
  countReturnNonceFailureSql,
  markReturnedSql,
  countPendingByProviderSql,
  purgePersonalDataSql,
  renewOrderSql,
  writeTransitionsSql,
} from './session.statements.js';

/**
 * What a collect reads of each session it claims: enough to ask the provider and to see whether
 * anything changes. Most pending sessions stay as they were, and only those that move on are read whole.
 */
export type CollectClaim = Pick<Session, 'id' | 'provider' | 'environment' | 'orderRef' | 'status' | 'hintCode' | 'expiresAt'>;

/** The columns a transition writes, for one session (a progress keeps the pending values). */
export interface SessionTransitionRow {
  id: string;
  status: Session['status'];
  hintCode: string | null;
  completionEnc: Buffer | null;
  evidenceEnc: Buffer | null;
  resultTokenEnc: Buffer | null;
  completedAt: Date | null;
}

/** A watched session's status, hint and order (renewals count the orders replaced) as a kiosk last saw or now sees them. */
export interface SessionProgress {
  id: string;
  status: Session['status'];
  hintCode: string | null;
  renewals: number;
}

/** The columns a renewed order replaces. */
export interface RenewedOrderRow {
  orderRef: string;
  qrStartToken: string | null;
  qrStartSecretEnc: Buffer | null;
  orderTime: Date;
  launchUrlEnc: Buffer | null;
}

/** Which session a caller asks for, within its team and environment. */
interface SessionKey {
  id: string;
  teamId: string;
  environment: Session['environment'];
}

// Three arrays of this many: far within a statement's limits, and a few hundred rows a round trip.
const MAX_READS_PER_STATEMENT = 256;

/** Every statement on the sessions table. */
@Injectable()
export class SessionStore {
  /** Sessions by id, each kept only where its team and environment match its caller's. */
  private readonly sessionsForKeys: PreparedSelect<Session>;
  private readonly keyedReads: CoalescingWriter<SessionKey, Session | null>;
  /** Whole sessions by ids: those of a collect that move on. */
  private readonly sessionsByIds: PreparedSelect<Session>;
  private readonly newSessions: InsertBatcher<Session>;

  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    // Each id is its own primary-key lookup (LATERAL … LIMIT 1 keeps the planner from choosing another
    // join), and the scope a filter on the row it finds, never an index condition: a plan made before
    // the table's statistics (a new database, a tenant growing fast) walked the team's index instead,
    // every session of the team per poll (docs/performance.md, issue 32).
    this.sessionsForKeys = new PreparedSelect(
      dataSource,
      Session,
      'team_id IS NOT DISTINCT FROM key_team AND environment IS NOT DISTINCT FROM key_environment',
      undefined,
      'unnest($1::uuid[], $2::uuid[], $3::text[]) AS k(key_id, key_team, key_environment) ' +
        'CROSS JOIN LATERAL (SELECT * FROM "sessions" WHERE id = k.key_id LIMIT 1) AS s',
    );
    // Every poll and QR frame reads its session: the reads that arrive while one is on its way go
    // together in the next statement (docs/performance.md, "Poll").
    this.keyedReads = new CoalescingWriter((keys) => this.readForKeys(keys), MAX_READS_PER_STATEMENT);
    this.sessionsByIds = new PreparedSelect(dataSource, Session, 'id = ANY ($1::uuid[])');
    this.newSessions = new InsertBatcher(dataSource, Session);
  }

  /**
   * Resolves once the row is committed (concurrent starts share one INSERT); `order`: the provider's own
   * order row (startWithSession), written by the same statement.
   */
  insert(session: Session, order?: PendingRow): Promise<void> {
    return this.newSessions.insert(session, order ? [order] : []);
  }

  findForKey(id: string, teamId: string, environment: Session['environment']): Promise<Session | null> {
    return this.keyedReads.submit({ id, teamId, environment });
  }

  /** One statement for the queued reads; each caller gets its row only where team and environment match. */
  private async readForKeys(keys: SessionKey[]): Promise<(Session | null)[]> {
    const rows = await this.sessionsForKeys.many([keys.map((k) => k.id), keys.map((k) => k.teamId), keys.map((k) => k.environment)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const handedOut = new Set<Session>();
    return keys.map((key) => {
      const row = byId.get(key.id);
      if (!row || row.teamId !== key.teamId || row.environment !== key.environment) return null;
      // Two polls of one session in one statement: each caller gets an entity of its own.
      const entity = handedOut.has(row) ? Object.assign(Object.create(Session.prototype) as Session, row) : row;
      handedOut.add(row);
      return entity;
    });
  }

  /** A session of a team, either environment: what a team member may see (docs/console.md). */
  findForTeam(id: string, teamId: string): Promise<Session | null> {
    return this.sessions.findOneBy({ id, teamId });
  }

  findById(id: string): Promise<Session | null> {
    return this.sessions.findOneBy({ id });
  }

  getById(id: string): Promise<Session> {
    return this.sessions.findOneByOrFail({ id });
  }

  findByIds(ids: string[]): Promise<Session[]> {
    return this.sessionsByIds.many([ids]);
  }

  /** Takes the right to collect this session now; false when another poll or replica did since `dueBefore`. */
  async claimForCollect(id: string, now: Date, dueBefore: Date): Promise<boolean> {
    return (await claimForCollectSql.run(this.dataSource, id, now, dueBefore)).rowCount > 0;
  }

  /**
   * Claims up to `limit` pending sessions last collected before `dueBefore`. Replicas run this at
   * once safely: SKIP LOCKED hands each due session to one claimer, and moving last_collected_at makes
   * it not due again for an interval.
   */
  async claimDue(now: Date, dueBefore: Date, limit: number, skipProviders: readonly string[] = []): Promise<CollectClaim[]> {
    // skipProviders: providers whose previous collect is still in flight (docs/reliability.md).
    return (await claimDueSql.run(this.dataSource, now, dueBefore, limit, skipProviders)).rows;
  }

  /** One unit of work (unit-of-work.ts): what a provider's store writes inside joins the transaction too. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inOneTransaction(this.dataSource, work);
  }

  /**
   * Inside the caller's transaction: writes the transitions of sessions that are still pending, in one
   * statement however many there are; answers the ids it wrote (the others ended meanwhile).
   */
  async writeTransitions(manager: EntityManager, changed: SessionTransitionRow[]): Promise<Set<string>> {
    const { rows } = await writeTransitionsSql.run(
      manager,
      changed.map((row) => row.id),
      changed.map((row) => row.status),
      changed.map((row) => row.hintCode),
      changed.map((row) => row.completionEnc),
      changed.map((row) => row.completedAt),
      changed.map((row) => row.evidenceEnc),
      changed.map((row) => row.resultTokenEnc),
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Of the given sessions, those whose status or hint is no longer what the caller last saw: one
   * query for all of them, however many, and the database does the comparing.
   */
  async changedSince(known: Omit<SessionProgress, 'status'>[]): Promise<SessionProgress[]> {
    if (known.length === 0) return [];
    const { rows } = await changedSinceSql.run(
      this.dataSource,
      known.map((k) => k.id),
      known.map((k) => k.hintCode),
      known.map((k) => k.renewals),
    );
    return rows;
  }

  /**
   * Puts a new order in place of the one that failed startFailed, if the session is still pending on
   * that order (docs/same-device.md); false when something else changed it first.
   */
  async renewOrder(id: string, failedOrderRef: string, order: RenewedOrderRow, now: Date): Promise<boolean> {
    const { rowCount } = await renewOrderSql.run(
      this.dataSource,
      id,
      failedOrderRef,
      order.orderRef,
      order.qrStartToken,
      order.qrStartSecretEnc,
      order.orderTime,
      order.launchUrlEnc,
      now,
    );
    return rowCount > 0;
  }

  /**
   * Counts a wrong return nonce while the return is still open; answers the new count, or null when the
   * return was accepted already or the limit was reached (such a call is not counted).
   */
  async countReturnNonceFailure(id: string, limit: number): Promise<number | null> {
    const { rows } = await countReturnNonceFailureSql.run(this.dataSource, id, limit);
    return rows[0]?.failures ?? null;
  }

  /** Accepts the one return of a complete session; false when it was accepted before or the nonce was locked. */
  async markReturned(id: string, now: Date, limit: number): Promise<boolean> {
    return (await markReturnedSql.run(this.dataSource, id, now, limit)).rowCount > 0;
  }

  /** Erases the personal data of sessions that ended at or before `endedBefore`; keeps status and times. */
  async purgePersonalData(now: Date, endedBefore: Date): Promise<number> {
    return (await purgePersonalDataSql.run(this.dataSource, now, endedBefore)).rowCount;
  }

  /** Pending sessions of every team, by provider: an operator's gauge (the partial index ix_sessions_pending_due covers it). */
  async countPendingByProvider(): Promise<Map<string, number>> {
    const { rows } = await countPendingByProviderSql.run(this.dataSource);
    return new Map(rows.map((row) => [row.provider, row.pending]));
  }
}
