import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../common/problem-details/validation-problem.exception.js';
import { isUuid } from '../common/validation/is-uuid.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { PreparedSelect } from '../database/prepared-select.js';
import { ProviderUnavailableError, type CollectResult, type CompletedIdentity, type EidChannel, type EidOperation, type EidProvider } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { WebhookOutbox, type SessionEndedEvent } from '../webhooks/webhook-outbox.service.js';
import { KioskLinks } from '../kiosk/kiosk-links.service.js';
import type { StartSessionBody } from './dto/start-session-body.js';
import { transitionAfterCollect, type SessionTransition } from './session-state.js';
import { sessionView, type SessionView } from './session-view.js';
import { Session } from './session.entity.js';

const AUTH_APP = { operation: 'auth', channel: 'app' } as const;

/** BankID: collect every two seconds, no more often. */
export const COLLECT_INTERVAL_MS = 2_000;
const secretAad = (id: string) => `sessions:${id}:qr_start_secret`;
const completionAad = (id: string) => `sessions:${id}:completion`;

/** What a kiosk screen may know of a session: its QR and progress, never the identity. */
export interface KioskSessionState {
  id: string;
  status: Session['status'];
  hintCode: string | null;
  orderTime: Date;
  /** Present while the session is pending and has an animated QR. */
  qr?: { startToken: string; startSecret: string };
}

@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);
  /** A session of a team and environment by id; its column list and hydration also serve the collector's claims. */
  private readonly sessionRows: PreparedSelect<Session>;
  private readonly newSessions: InsertBatcher<Session>;

  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly kioskLinks: KioskLinks,
    @Inject(sessionsConfig.KEY) private readonly config: SessionsConfig,
    private readonly outbox: WebhookOutbox,
  ) {
    this.sessionRows = new PreparedSelect(dataSource, Session, 'id = $1 AND team_id = $2 AND environment = $3');
    this.newSessions = new InsertBatcher(dataSource, Session);
  }

  /** Starts any of the four kinds (docs/api.md, "Signing and the phone channel"); the body was validated for its kind. */
  async start(principal: ApiKeyPrincipal, providerName: string, request: StartSessionBody, kind: { operation: EidOperation; channel: EidChannel } = AUTH_APP) {
    const provider = this.providers.forStart(providerName, principal.apiKey.environment, kind);
    const order = await this.callProvider(provider, 'start', () =>
      provider.start({
        environment: principal.apiKey.environment,
        ...kind,
        endUserIp: request.endUserIp,
        userVisibleData: request.userVisibleData,
        userVisibleDataFormat: request.userVisibleDataFormat,
        userNonVisibleData: request.userNonVisibleData,
        requirement: request.requirement,
        returnUrl: request.returnUrl,
        personalNumber: request.personalNumber,
        callInitiator: request.callInitiator,
      }),
    );
    const now = this.clock.now();
    const id = randomUUID();
    const session = this.sessions.create({
      id,
      teamId: principal.team.id,
      apiKeyId: principal.apiKey.id,
      environment: principal.apiKey.environment,
      provider: provider.name,
      operation: kind.operation,
      channel: kind.channel,
      orderRef: order.orderRef,
      status: 'pending',
      hintCode: 'outstandingTransaction',
      qrStartToken: order.qr?.startToken ?? null,
      qrStartSecretEnc: order.qr ? this.cipher.encrypt(order.qr.startSecret, secretAad(id)) : null,
      orderTime: order.orderTime,
      endUserIp: request.endUserIp ?? null,
      metadata: request.metadata ?? null,
      completionEnc: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.sessionTtlMs),
      completedAt: null,
      // The order was just made: the first collect is due one interval from now.
      lastCollectedAt: now,
      piiPurgedAt: null,
    });
    await this.newSessions.insert(session);
    return {
      sessionId: id,
      provider: provider.name,
      operation: session.operation,
      channel: session.channel,
      status: session.status,
      qrStartToken: order.qr?.startToken,
      qrStartSecret: order.qr?.startSecret,
      autoStartToken: order.autoStartToken,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      // A kiosk can only show an animated QR: providers without one get no link.
      kioskUrl: order.qr ? this.kioskLinks.urlFor(id, session.expiresAt) : undefined,
    };
  }

  /** The stored state, refreshed from the provider first when the last collect is due. */
  async poll(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    let session = await this.findForKey(principal, sessionId);
    // The row says whether a collect is due; only then try to claim it (most polls need no write).
    const due = session.lastCollectedAt.getTime() <= this.clock.nowMs() - COLLECT_INTERVAL_MS;
    if (session.status === 'pending' && due && (await this.claimForCollect(session.id))) session = await this.collect(session);
    return this.view(session);
  }

  async cancel(principal: ApiKeyPrincipal, sessionId: string): Promise<SessionView> {
    const session = await this.findForKey(principal, sessionId);
    if (session.status !== 'pending') throw new DomainException('session_not_pending', 'The session has already ended.');
    const provider = this.providers.find(session.provider);
    if (provider) await this.callProvider(provider, 'cancel', () => provider.cancel(session));
    const [updated] = await this.applyTransitions([{ session, transition: { kind: 'fail', hintCode: 'cancelled' } }]);
    if (!updated) throw new DomainException('session_not_pending', 'The session has already ended.');
    return this.view(updated);
  }

  /** A pending session of the caller's team and environment, with its decrypted QR secret. */
  async pendingForQr(principal: ApiKeyPrincipal, sessionId: string): Promise<{ session: Session; qrStartSecret: string }> {
    const session = await this.findForKey(principal, sessionId);
    // A phone session never had a QR: the user is on a call, and the order is in their app already.
    if (session.channel === 'phone') throw new DomainException('qr_not_available', 'A phone session has no QR code.');
    if (session.status !== 'pending' || this.clock.now() >= session.expiresAt || !session.qrStartSecretEnc || !session.qrStartToken) {
      throw new DomainException('session_not_pending', 'The session is no longer waiting for a scan.');
    }
    return { session, qrStartSecret: this.cipher.decrypt(session.qrStartSecretEnc, secretAad(session.id)) };
  }

  /** A session by id alone: the kiosk's token already names it. */
  async forKiosk(sessionId: string): Promise<KioskSessionState> {
    const session = isUuid(sessionId) ? await this.sessions.findOneBy({ id: sessionId }) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    const { id, status, hintCode, orderTime, qrStartToken, qrStartSecretEnc } = session;
    const showsQr = status === 'pending' && qrStartToken && qrStartSecretEnc;
    return {
      id,
      status,
      hintCode,
      orderTime,
      ...(showsQr ? { qr: { startToken: qrStartToken, startSecret: this.cipher.decrypt(qrStartSecretEnc, secretAad(id)) } } : {}),
    };
  }

  /**
   * Of the sessions a kiosk process watches, those whose status or hint is no longer what it last
   * saw: one query a second for all of them, however many, and the database does the comparing.
   */
  async kioskChanges(known: { id: string; hintCode: string | null }[]): Promise<{ id: string; status: Session['status']; hintCode: string | null }[]> {
    if (known.length === 0) return [];
    const rows: { id: string; status: Session['status']; hint_code: string | null }[] = await this.dataSource.query(
      `SELECT s.id, s.status, s.hint_code
         FROM sessions s
         JOIN unnest($1::uuid[], $2::text[]) AS known(id, hint_code) ON known.id = s.id
        WHERE s.status <> 'pending' OR s.hint_code IS DISTINCT FROM known.hint_code`,
      [known.map((k) => k.id), known.map((k) => k.hintCode)],
    );
    return rows.map((row) => ({ id: row.id, status: row.status, hintCode: row.hint_code }));
  }

  /**
   * One tick of the background collector: claims up to `limit` pending sessions whose collect is
   * due and collects them. Replicas run this at once safely: SKIP LOCKED hands each due session to
   * one claimer, and moving last_collected_at makes it not due again for an interval.
   */
  async collectDue(limit = 200): Promise<string[]> {
    const now = this.clock.now();
    const [rows]: [Record<string, unknown>[]] = await this.dataSource.query(
      `UPDATE sessions SET last_collected_at = $1
        WHERE id IN (SELECT id FROM sessions
                      WHERE status = 'pending' AND last_collected_at <= $2
                      ORDER BY last_collected_at LIMIT $3
                      FOR UPDATE SKIP LOCKED)
        RETURNING ${this.sessionRows.columnList}`,
      [now, new Date(now.getTime() - COLLECT_INTERVAL_MS), limit],
    );
    const sessions = rows.map((row) => this.sessionRows.hydrate(row));
    const byProvider = new Map<string, Session[]>();
    for (const session of sessions) {
      const group = byProvider.get(session.provider);
      if (group) group.push(session);
      else byProvider.set(session.provider, [session]);
    }
    await Promise.all([...byProvider].map(([name, group]) => this.collectGroup(name, group)));
    return sessions.map((session) => session.id);
  }

  private async findForKey(principal: ApiKeyPrincipal, sessionId: string): Promise<Session> {
    // Another team's or the other environment's session answers exactly like a missing one: no
    // enumeration, and a test key never reads a live identity nor a live key a simulated one (docs/security.md).
    const session = isUuid(sessionId) ? await this.sessionRows.one([sessionId, principal.team.id, principal.apiKey.environment]) : null;
    if (!session) throw new DomainException('session_not_found', 'No such session.');
    return session;
  }

  /** Takes the right to collect this session now; false when another poll or replica did within the interval. */
  private async claimForCollect(id: string): Promise<boolean> {
    const now = this.clock.now();
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE sessions SET last_collected_at = $2 WHERE id = $1 AND status = 'pending' AND last_collected_at <= $3`,
      [id, now, new Date(now.getTime() - COLLECT_INTERVAL_MS)],
    );
    return affected > 0;
  }

  private async collect(session: Session): Promise<Session> {
    const [settled] = await this.settle([{ session, collected: await this.collectOne(session) }]);
    return settled;
  }

  private async collectOne(session: Session): Promise<CollectResult | null> {
    const provider = this.providers.find(session.provider);
    try {
      return provider ? await provider.collect(session) : null;
    } catch (error) {
      // Retried at the next interval; the session fails by itself at expiry if the provider stays away.
      this.logger.warn({ sessionId: session.id, provider: session.provider, err: describe(error) }, 'Collect failed');
      return null;
    }
  }

  /** A claimed batch of one provider's sessions: one call where the provider answers for many orders. */
  private async collectGroup(providerName: string, group: Session[]): Promise<void> {
    const provider = this.providers.find(providerName);
    if (!provider?.collectMany) {
      const collected = await Promise.all(group.map((session) => this.collectOne(session)));
      await this.settle(group.map((session, i) => ({ session, collected: collected[i] })));
      return;
    }
    let results: Map<string, CollectResult> | null = null;
    try {
      results = await provider.collectMany(group);
    } catch (error) {
      this.logger.warn({ provider: providerName, sessions: group.length, err: describe(error) }, 'Collect failed');
    }
    await this.settle(group.map((session) => ({ session, collected: results?.get(session.orderRef) ?? null })));
  }

  /** Writes what collects found, all in one transaction; answers each session as it now stands. */
  private async settle(collects: { session: Session; collected: CollectResult | null }[]): Promise<Session[]> {
    const now = this.clock.now();
    const applied = await this.applyTransitions(collects.map(({ session, collected }) => ({ session, transition: transitionAfterCollect(session, collected, now) })));
    // A session that something else ended meanwhile (a cancel, another replica) is read again.
    return Promise.all(applied.map((session, i) => session ?? this.sessions.findOneByOrFail({ id: collects[i].session.id })));
  }

  /**
   * Writes transitions of sessions that are still pending, in one transaction of a few statements
   * however many there are; null for a session that something else ended first. The end of a
   * session and its webhook messages are one transaction (the outbox): a crash between the two
   * cannot lose a webhook, nor send one for a change that was rolled back.
   */
  private async applyTransitions(items: { session: Session; transition: SessionTransition }[]): Promise<(Session | null)[]> {
    const now = this.clock.now();
    const changed = items.flatMap(({ session, transition }) => (transition.kind === 'none' ? [] : [{ session, transition, changes: this.changesOf(session, transition, now) }]));
    if (changed.length === 0) return items.map(({ session }) => session);
    const outcome = await this.dataSource.transaction(async (manager) => {
      // Every column a transition may touch, for every changed session: a progress keeps the pending values.
      const [rows]: [{ id: string }[]] = await manager.query(
        `UPDATE sessions s SET status = v.status, hint_code = v.hint_code, completion_enc = v.completion_enc, completed_at = v.completed_at
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bytea[], $5::timestamptz[]) AS v (id, status, hint_code, completion_enc, completed_at)
          WHERE s.id = v.id AND s.status = 'pending'
         RETURNING s.id`,
        [
          changed.map(({ session }) => session.id),
          changed.map(({ session, changes }) => changes.status ?? session.status),
          changed.map(({ session, changes }) => (changes.hintCode === undefined ? session.hintCode : changes.hintCode)),
          changed.map(({ changes }) => changes.completionEnc ?? null),
          changed.map(({ changes }) => changes.completedAt ?? null),
        ],
      );
      const updated = new Set(rows.map((row) => row.id));
      const events = changed
        .filter(({ session, transition }) => updated.has(session.id) && transition.kind !== 'progress')
        .map(({ session, transition, changes }) => endedEvent({ ...session, ...changes } as Session, transition.kind === 'complete' ? transition.completion : null));
      return { updated, messages: await this.outbox.enqueue(manager, events, now) };
    });
    if (outcome.messages > 0) this.outbox.dispatchSoon();
    const changesById = new Map(changed.map(({ session, changes }) => [session.id, changes]));
    return items.map(({ session }) => {
      const changes = changesById.get(session.id);
      if (!changes) return session;
      return outcome.updated.has(session.id) ? Object.assign(session, changes) : null;
    });
  }

  private changesOf(session: Session, transition: Exclude<SessionTransition, { kind: 'none' }>, now: Date): Partial<Session> {
    if (transition.kind === 'progress') return { hintCode: transition.hintCode };
    if (transition.kind === 'complete') {
      return { status: 'complete', hintCode: null, completionEnc: this.cipher.encryptJson(transition.completion, completionAad(session.id)), completedAt: now };
    }
    return { status: 'failed', hintCode: transition.hintCode, completedAt: now };
  }

  private view(session: Session): SessionView {
    const completion =
      session.status === 'complete' && session.completionEnc
        ? this.cipher.decryptJson<CompletedIdentity>(session.completionEnc, completionAad(session.id))
        : null;
    return sessionView(session, completion);
  }

  private async callProvider<T>(provider: EidProvider, operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DomainException || error instanceof ValidationProblemException) throw error;
      this.logger.warn({ provider: provider.name, operation, err: describe(error) }, 'e-ID provider call failed');
      throw new DomainException('provider_unavailable', `The ${provider.name} provider did not answer; try again shortly.`);
    }
  }
}

/** The webhook of an ended session (SPEC 4): the poll answer plus the RP's metadata. */
function endedEvent(session: Session, completion: CompletedIdentity | null): SessionEndedEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    // sign.session.* for signatures, auth.session.* for identifications, on either channel (docs/webhooks.md).
    type: `${session.operation}.session.${session.status === 'complete' ? 'completed' : 'failed'}`,
    occurredAt: session.completedAt!,
    data: { ...sessionView(session, completion), ...(session.metadata ? { metadata: session.metadata } : {}) },
  };
}

// Provider errors may quote request bodies; log the kind and message only, never the data.
const describe = (error: unknown) =>
  error instanceof ProviderUnavailableError || error instanceof Error ? { type: error.name, message: error.message } : { type: typeof error };
