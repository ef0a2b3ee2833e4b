import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import type { CollectResult } from '../../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import { collectDueBefore } from './collect-cadence.js';
import { describeProviderError } from './provider-error.js';
import { SessionMetrics } from '../session-metrics.js';
import { SessionRenewal } from './session-renewal.js';
import { transitionAfterCollect, type SessionTransition } from '../session-state.js';
import { SessionTransitionWriter } from './session-transition-writer.js';
import { SessionStore, type CollectClaim } from '../session.store.js';
import type { Session } from '../session.entity.js';

/**
 * A poll collects its session itself only when the background collector is this many intervals
 * behind: while it keeps up, a poll is one read of the stored state (docs/performance.md).
 */
export const POLL_COLLECT_LAG_INTERVALS = 2;

/**
 * How sessions end: collects from the provider and the transitions they cause. Every way a session
 * changes state passes through here; a failed order may be renewed instead (SessionRenewal), and
 * SessionTransitionWriter writes the rest with their webhook messages in one transaction.
 */
@Injectable()
export class SessionSettlement {
  private readonly logger = new Logger(SessionSettlement.name);

  constructor(
    private readonly store: SessionStore,
    private readonly providers: EidProviderRegistry,
    private readonly clock: Clock,
    private readonly metrics: SessionMetrics,
    private readonly renewal: SessionRenewal,
    private readonly writer: SessionTransitionWriter,
  ) {}

  /**
   * The session refreshed from its provider when its last collect is `intervals` intervals old or
   * older (less the tolerance of collect-cadence.ts); as it was otherwise. Polls pass POLL_COLLECT_LAG_INTERVALS (docs/performance.md).
   */
  async collectIfDue(session: Session, intervals = 1): Promise<Session> {
    // The row says whether a collect is due; only then try to claim it (most polls need no write).
    const now = this.clock.now();
    const dueBefore = collectDueBefore(now, intervals);
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
    const claims = await this.store.claimDue(now, collectDueBefore(now), limit, skipProviders);
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
    const [updated] = await this.writer.write([{ session, transition }]);
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

  /** Writes what collects found (SessionTransitionWriter); answers each session as it now stands. */
  private async settle(collects: { session: Session; collected: CollectResult | null }[]): Promise<Session[]> {
    const now = this.clock.now();
    const transitions = collects.map(({ session, collected }) => transitionAfterCollect(session, collected, now));
    // An order nobody picked up is replaced instead of failing the session (autoRenew): no transition, no webhook.
    const renewing = transitions.map((transition, i) => this.renewal.renews(collects[i].session, transition, now));
    await Promise.all(collects.filter((_, i) => renewing[i]).map(({ session }) => this.renewal.renew(session, now)));
    const applied = await this.writer.write(
      collects.map(({ session }, i) => ({ session, transition: renewing[i] ? { kind: 'none' as const } : transitions[i] })),
    );
    // A session that something else ended meanwhile (a cancel, another replica) is read again.
    return Promise.all(applied.map(async (session, i) => session ?? (await this.store.getById(collects[i].session.id))));
  }
}
