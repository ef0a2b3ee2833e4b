import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import type { CollectResult, CompletedIdentity, StartOrderRequest } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import type { UserMessageTable } from '../eid-providers/user-messages.js';
import { evidenceView, EvidenceService } from '../evidence/evidence.service.js';
import { ResultTokenSigner } from '../evidence/result-token-signer.js';
import { WebhookOutbox, type SessionEvent } from '../webhooks/webhook-outbox.js';
import { describeProviderError } from './provider-error.js';
import {
  completionAad,
  evidenceAad,
  launchUrlAad,
  qrSecretAad,
  renewalRequestAad,
  resultTokenAad,
  signedTextsAad,
} from './session-encryption.js';
import { sessionResult, type SignedTexts } from './session-result.js';
import { heldToMaxRisk } from './session-risk.js';
import { transitionAfterCollect, type SessionTransition } from './session-state.js';
import { SessionEndListeners } from './session-end-listeners.js';
import { SessionEventLog } from './session-event-log.js';
import { SessionMetrics } from './session-metrics.js';
import { SessionStore, type CollectClaim, type SessionTransitionRow } from './session.store.js';
import { sessionView, type SessionOutcome } from './session-view.js';
import type { Session } from './session.entity.js';

/** Collect every two seconds, no more often (docs/bankid.md, "Statuses and hint codes"). */
export const COLLECT_INTERVAL_MS = 2_000;
/** About this much evidence work (wall time) per transaction when a batch settles (applyTransitions). */
export const SETTLE_SLICE_MS = 25;

/**
 * How sessions end: collects from the provider, the transitions they cause, and the webhook messages
 * of ended sessions and of hintCode changes, written in one transaction. Every way a session changes
 * state passes through here.
 */
@Injectable()
export class SessionSettlement {
  private readonly logger = new Logger(SessionSettlement.name);

  constructor(
    private readonly store: SessionStore,
    private readonly providers: EidProviderRegistry,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    private readonly outbox: WebhookOutbox,
    private readonly evidence: EvidenceService,
    private readonly resultTokens: ResultTokenSigner,
    private readonly metrics: SessionMetrics,
    private readonly endListeners: SessionEndListeners,
    private readonly eventLog: SessionEventLog,
  ) {}

  /** The session refreshed from its provider when its last collect is due; as it was otherwise. */
  async collectIfDue(session: Session): Promise<Session> {
    // The row says whether a collect is due; only then try to claim it (most polls need no write).
    const now = this.clock.now();
    const dueBefore = new Date(now.getTime() - COLLECT_INTERVAL_MS);
    if (session.status !== 'pending' || session.lastCollectedAt > dueBefore) return session;
    if (!(await this.store.claimForCollect(session.id, now, dueBefore))) return session;
    const [settled] = await this.settle([{ session, collected: await this.collectOne(session) }]);
    return settled;
  }

  /**
   * One tick of the background collector: claims up to `limit` pending sessions whose collect is due
   * and collects them, one call per provider that answers for many orders at once.
   */
  async collectDue(limit = 200): Promise<string[]> {
    const { claimed, byProvider } = await this.collectDueByProvider(limit);
    await Promise.all(byProvider.values());
    return claimed;
  }

  /**
   * collectDue without waiting: each provider's collect is its own promise, so that the collector
   * need not wait for a provider that hangs (until its timeout) to collect the others, and can leave
   * that provider's sessions unclaimed (`skipProviders`) until its collect ends (docs/reliability.md).
   */
  async collectDueByProvider(
    limit: number,
    skipProviders: readonly string[] = [],
  ): Promise<{ claimed: string[]; byProvider: Map<string, Promise<void>> }> {
    const now = this.clock.now();
    const claims = await this.store.claimDue(now, new Date(now.getTime() - COLLECT_INTERVAL_MS), limit, skipProviders);
    const groups = new Map<string, CollectClaim[]>();
    for (const claim of claims) {
      const group = groups.get(claim.provider);
      if (group) group.push(claim);
      else groups.set(claim.provider, [claim]);
    }
    const byProvider = new Map([...groups].map(([name, group]) => [name, this.collectGroup(name, group)] as const));
    return { claimed: claims.map((claim) => claim.id), byProvider };
  }

  /** Applies one transition (a cancel); null when something else ended the session first. */
  async apply(session: Session, transition: SessionTransition): Promise<Session | null> {
    const [updated] = await this.applyTransitions([{ session, transition }]);
    return updated;
  }

  private async collectOne(session: CollectClaim): Promise<CollectResult | null> {
    const provider = this.providers.find(session.provider);
    try {
      return provider ? await this.metrics.timeProviderCall(provider.name, 'collect', () => provider.collect(session)) : null;
    } catch (error) {
      // Retried at the next interval; the session fails by itself at expiry if the provider stays away.
      this.logger.warn({ sessionId: session.id, provider: session.provider, err: describeProviderError(error) }, 'Collect failed');
      return null;
    }
  }

  /** A claimed batch of one provider's sessions: one call where the provider answers for many orders. */
  private async collectGroup(providerName: string, group: CollectClaim[]): Promise<void> {
    const provider = this.providers.find(providerName);
    let collected: (CollectResult | null)[];
    if (!provider?.collectMany) {
      collected = await Promise.all(group.map((claim) => this.collectOne(claim)));
    } else {
      let results: Map<string, CollectResult> | null = null;
      try {
        results = await this.metrics.timeProviderCall(provider.name, 'collect', () => provider.collectMany!(group));
      } catch (error) {
        this.logger.warn({ provider: providerName, sessions: group.length, err: describeProviderError(error) }, 'Collect failed');
      }
      collected = group.map((claim) => results?.get(claim.orderRef) ?? null);
    }
    // Most pending sessions are as they were: only those that move on are read whole and settled.
    const now = this.clock.now();
    const moving = new Map(
      group.flatMap((claim, i) =>
        transitionAfterCollect(claim, collected[i], now).kind === 'none' ? [] : [[claim.id, collected[i]] as const],
      ),
    );
    if (moving.size === 0) return;
    const sessions = await this.store.findByIds([...moving.keys()]);
    await this.settle(sessions.map((session) => ({ session, collected: moving.get(session.id)! })));
  }

  /** Writes what collects found, all in one transaction; answers each session as it now stands. */
  private async settle(collects: { session: Session; collected: CollectResult | null }[]): Promise<Session[]> {
    const now = this.clock.now();
    const transitions = collects.map(({ session, collected }) => transitionAfterCollect(session, collected, now));
    // An order nobody picked up is replaced instead of failing the session (autoRenew): no transition, no webhook.
    const renewing = transitions.map((transition, i) => this.renews(collects[i].session, transition, now));
    await Promise.all(collects.filter((_, i) => renewing[i]).map(({ session }) => this.renew(session, now)));
    const applied = await this.applyTransitions(
      collects.map(({ session }, i) => ({ session, transition: renewing[i] ? { kind: 'none' as const } : transitions[i] })),
    );
    // A session that something else ended meanwhile (a cancel, another replica) is read again.
    return Promise.all(applied.map(async (session, i) => session ?? (await this.store.getById(collects[i].session.id))));
  }

  /**
   * Writes transitions of sessions that are still pending; null for a session that something else
   * ended first. The end of a session and its webhook messages are one transaction (the outbox): a
   * crash between the two cannot lose a webhook, nor send one for a change that was rolled back.
   *
   * Final transitions verify evidence, which is CPU work (docs/evidence.md, "Cost"). A batch is
   * therefore written in slices of about SETTLE_SLICE_MS of that work, each its own transaction of a
   * few statements: the first sessions' webhooks leave while later ones are still being verified,
   * and the event loop (requests, webhook sends) gets a turn between sessions.
   */
  private async applyTransitions(items: { session: Session; transition: SessionTransition }[]): Promise<(Session | null)[]> {
    const written = new Map<string, { changes: Partial<Session>; updated: boolean }>();
    let slice: Change[] = [];
    let sliceNow = this.clock.now();
    let sliceStarted = performance.now();
    for (const item of items) {
      const { session } = item;
      // A key's maxRisk turns a too-risky completion into a failure before anything of it is written.
      const transition = heldToMaxRisk(session, item.transition);
      if (transition.kind === 'none') continue;
      if (slice.length > 0 && transition.kind === 'complete') {
        if (performance.now() - sliceStarted >= SETTLE_SLICE_MS) {
          await this.write(slice, sliceNow, written);
          slice = [];
          sliceNow = this.clock.now();
          sliceStarted = performance.now();
        } else {
          await new Promise(setImmediate);
        }
      }
      slice.push({ session, transition, ...(await this.changesOf(session, transition, sliceNow)) });
    }
    if (slice.length > 0) await this.write(slice, sliceNow, written);
    return items.map(({ session }) => {
      const result = written.get(session.id);
      if (!result) return session;
      return result.updated ? Object.assign(session, result.changes) : null;
    });
  }

  /** One slice in one transaction: the sessions' new state and their webhook messages. */
  private async write(slice: Change[], now: Date, written: Map<string, { changes: Partial<Session>; updated: boolean }>): Promise<void> {
    const outcome = await this.store.transaction(async (manager) => {
      const updated = await this.store.writeTransitions(
        manager,
        slice.map(({ session, changes }) => rowOf(session, changes)),
      );
      // A hintCode change is an event too, for endpoints that asked for progress (docs/webhooks.md, "Progress events").
      const events = slice
        .filter(({ session }) => updated.has(session.id))
        .map(({ session, transition, changes, completion, outcome }) =>
          transition.kind === 'progress'
            ? progressEvent({ ...session, ...changes }, now, this.messagesOf(session))
            : endedEvent({ ...session, ...changes }, completion, outcome, this.messagesOf(session)),
        );
      // The session's timeline (docs/console.md): the same changes, in the same transaction.
      await this.eventLog.append(
        manager,
        slice.filter(({ session }) => updated.has(session.id)).map(({ session, changes }) => timelineRow(session, changes)),
        now,
      );
      return { updated, messages: await this.outbox.enqueue(manager, events, now) };
    });
    if (outcome.messages > 0) this.outbox.dispatchSoon();
    for (const { session, transition, changes } of slice) {
      const updated = outcome.updated.has(session.id);
      written.set(session.id, { changes, updated });
      if (transition.kind !== 'progress' && updated) {
        this.metrics.sessionEnded({ ...session, ...changes }, session.operation);
        this.endListeners.notify({ ...session, ...changes });
      }
    }
  }

  /**
   * Starts a new order with the session's first request (the same returnUrl and nonce) and puts it in
   * place; if the provider cannot start one now, the next collect tries again (docs/same-device.md).
   */
  private async renew(session: Session, now: Date): Promise<void> {
    const provider = this.providers.find(session.provider);
    if (!provider || !session.renewalRequestEnc) return;
    try {
      const request = this.cipher.decryptJson<StartOrderRequest>(session.renewalRequestEnc, renewalRequestAad(session.id));
      const order = await provider.start(request);
      const renewed = {
        orderRef: order.orderRef,
        qrStartToken: order.qr?.startToken ?? null,
        qrStartSecretEnc: order.qr ? this.cipher.encrypt(order.qr.startSecret, qrSecretAad(session.id)) : null,
        orderTime: order.orderTime,
        launchUrlEnc: order.launchUrl ? this.cipher.encrypt(order.launchUrl, launchUrlAad(session.id)) : null,
      };
      if (await this.store.renewOrder(session.id, session.orderRef, renewed, now)) {
        Object.assign(session, renewed, { hintCode: 'outstandingTransaction', renewals: session.renewals + 1, lastCollectedAt: now });
      }
    } catch (error) {
      this.logger.warn({ sessionId: session.id, provider: session.provider, err: describeProviderError(error) }, 'Order renewal failed');
    }
  }

  /**
   * The columns a transition writes. A final one is where the evidence is checked and the result
   * signed, once per session (docs/evidence.md): poll answers only read what is stored here.
   */
  private async changesOf(session: Session, transition: Exclude<SessionTransition, { kind: 'none' }>, now: Date): Promise<Finalised> {
    if (transition.kind === 'progress') return { changes: { hintCode: transition.hintCode }, completion: null, outcome: {} };
    if (transition.kind === 'fail') {
      const changes: Partial<Session> = { status: 'failed', hintCode: transition.hintCode, completedAt: now };
      const resultToken = await this.resultTokens.sign(sessionResult({ ...session, ...changes }, null, undefined));
      return {
        changes: { ...changes, resultTokenEnc: this.cipher.encrypt(resultToken, resultTokenAad(session.id)) },
        completion: null,
        outcome: { resultToken },
      };
    }
    // The evidence is kept apart from the identity: it has its own route and its own answer once purged.
    const { evidence: provided, ...completion } = transition.completion;
    const profile = this.providers.profileOf(session.provider)?.evidence;
    const evidence = await this.evidence.assess(this.evidenceSessionOf(session), profile, provided, {
      personalNumber: completion.user?.personalNumber,
      at: now,
    });
    const changes: Partial<Session> = { status: 'complete', hintCode: null, completedAt: now };
    const sealed = evidence && profile?.sealed(evidence);
    const resultToken = await this.resultTokens.sign(sessionResult({ ...session, ...changes }, completion, sealed));
    return {
      changes: {
        ...changes,
        completionEnc: this.cipher.encryptJson(completion, completionAad(session.id)),
        evidenceEnc: evidence ? this.cipher.encryptJson(evidence, evidenceAad(session.id)) : null,
        resultTokenEnc: this.cipher.encrypt(resultToken, resultTokenAad(session.id)),
      },
      completion,
      outcome: { ...(evidence ? { evidence: evidenceView(evidence, profile?.rawMembers ?? []) } : {}), resultToken },
    };
  }

  /** autoRenew: an order its provider says nobody picked up is replaced while the session has time left. */
  private renews(session: Session, transition: SessionTransition, now: Date): boolean {
    if (transition.kind !== 'fail' || !session.autoRenew || now >= session.expiresAt) return false;
    return this.providers.profileOf(session.provider)?.renewsAfter?.includes(transition.hintCode) ?? false;
  }

  private messagesOf(session: Session): UserMessageTable | undefined {
    return this.providers.profileOf(session.provider)?.messages;
  }

  private evidenceSessionOf(session: Session) {
    const texts: SignedTexts = session.signedTextsEnc ? this.cipher.decryptJson(session.signedTextsEnc, signedTextsAad(session.id)) : {};
    return {
      id: session.id,
      provider: session.provider,
      environment: session.environment,
      operation: session.operation,
      orderRef: session.orderRef,
      ...texts,
    };
  }
}

/** What a transition writes, and for a final one what its webhook tells. */
interface Finalised {
  changes: Partial<Session>;
  completion: CompletedIdentity | null;
  outcome: SessionOutcome;
}

type Change = { session: Session; transition: Exclude<SessionTransition, { kind: 'none' }> } & Finalised;

/** Every column a transition may touch: a progress keeps the pending values. */
function rowOf(session: Session, changes: Partial<Session>): SessionTransitionRow {
  return {
    id: session.id,
    status: changes.status ?? session.status,
    hintCode: changes.hintCode === undefined ? session.hintCode : changes.hintCode,
    completionEnc: changes.completionEnc ?? null,
    evidenceEnc: changes.evidenceEnc ?? null,
    resultTokenEnc: changes.resultTokenEnc ?? null,
    completedAt: changes.completedAt ?? null,
  };
}

/** A change as the timeline keeps it: status and hint code, nothing personal. */
function timelineRow(session: Session, changes: Partial<Session>) {
  const row = rowOf(session, changes);
  return { sessionId: row.id, status: row.status, hintCode: row.hintCode };
}

/** The webhook of an ended session (docs/webhooks.md): the poll answer plus the RP's metadata. */
function endedEvent(
  session: Session,
  completion: CompletedIdentity | null,
  outcome: SessionOutcome,
  messages: UserMessageTable | undefined,
): SessionEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    // sign.session.* for signatures, auth.session.* for identifications, on either channel (docs/webhooks.md).
    type: `${session.operation}.session.${session.status === 'complete' ? 'completed' : 'failed'}`,
    occurredAt: session.completedAt!,
    data: eventData(session, completion, outcome, messages),
  };
}

/** The webhook of a pending session whose hintCode changed: the pending poll answer, never a user. */
function progressEvent(session: Session, now: Date, messages: UserMessageTable | undefined): SessionEvent {
  return {
    teamId: session.teamId,
    environment: session.environment,
    sessionId: session.id,
    type: `${session.operation}.session.updated`,
    occurredAt: now,
    data: eventData(session, null, undefined, messages),
  };
}

function eventData(
  session: Session,
  completion: CompletedIdentity | null,
  outcome: SessionOutcome | undefined,
  messages: UserMessageTable | undefined,
): Record<string, unknown> {
  return { ...sessionView(session, completion, outcome, messages), ...(session.metadata ? { metadata: session.metadata } : {}) };
}
