import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import type { UserMessageTable } from '../../eid-providers/user-messages.js';
import { TransparencyLog } from '../../transparency/transparency-log.service.js';
import { WebhookOutbox } from '../../webhooks/webhook-outbox.js';
import { SessionEndListeners } from './session-end-listeners.js';
import { SessionEventLog } from './session-event-log.js';
import { endedEvent, progressEvent, rowOf, timelineRow } from './session-events.js';
import { SessionFinalisation, type Finalised } from './session-finalisation.js';
import { SessionMetrics } from '../session-metrics.js';
import { heldToMaxRisk } from './session-risk.js';
import type { SessionTransition } from '../session-state.js';
import { SessionStore } from '../session.store.js';
import type { Session } from '../session.entity.js';

/** About this much evidence work (wall time) per transaction when a batch settles (write). */
export const SETTLE_SLICE_MS = 25;

type Change = { session: Session; transition: Exclude<SessionTransition, { kind: 'none' }> } & Finalised;
type Written = Map<string, { changes: Partial<Session>; updated: boolean }>;

/**
 * Writes transitions of sessions that are still pending. The end of a session and its webhook
 * messages are one transaction (the outbox): a crash between the two cannot lose a webhook, nor send
 * one for a change that was rolled back.
 */
@Injectable()
export class SessionTransitionWriter {
  constructor(
    private readonly store: SessionStore,
    private readonly providers: EidProviderRegistry,
    private readonly clock: Clock,
    private readonly outbox: WebhookOutbox,
    private readonly finalisation: SessionFinalisation,
    private readonly metrics: SessionMetrics,
    private readonly endListeners: SessionEndListeners,
    private readonly eventLog: SessionEventLog,
    private readonly transparency: TransparencyLog,
  ) {}

  /**
   * Each session as written; null for a session that something else ended first.
   *
   * Final transitions verify evidence, which is CPU work (docs/evidence.md, "Cost"). A batch is
   * therefore written in slices of about SETTLE_SLICE_MS of that work, each its own transaction of a
   * few statements: the first sessions' webhooks leave while later ones are still being verified,
   * and the event loop (requests, webhook sends) gets a turn between sessions.
   */
  async write(items: { session: Session; transition: SessionTransition }[]): Promise<(Session | null)[]> {
    const written: Written = new Map();
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
          await this.writeSlice(slice, sliceNow, written);
          slice = [];
          sliceNow = this.clock.now();
          sliceStarted = performance.now();
        } else {
          await new Promise(setImmediate);
        }
      }
      slice.push({ session, transition, ...(await this.finalisation.changesOf(session, transition, sliceNow)) });
    }
    if (slice.length > 0) await this.writeSlice(slice, sliceNow, written);
    return items.map(({ session }) => {
      const result = written.get(session.id);
      if (!result) return session;
      return result.updated ? Object.assign(session, result.changes) : null;
    });
  }

  /**
   * One slice in one transaction: the sessions' new state, what their providers' orders forget, their
   * timeline, their log leaves and their webhook messages.
   */
  private async writeSlice(slice: Change[], now: Date, written: Written): Promise<void> {
    const outcome = await this.store.transaction(async (manager) => {
      const updated = await this.store.writeTransitions(
        manager,
        slice.map(({ session, changes }) => rowOf(session, changes)),
      );
      const applied = slice.filter(({ session }) => updated.has(session.id));
      // A hintCode change is an event too, for endpoints that asked for progress (docs/webhooks.md, "Progress events").
      const events = applied.map(({ session, transition, changes, completion, outcome }) =>
        transition.kind === 'progress'
          ? progressEvent({ ...session, ...changes }, now, this.messagesOf(session))
          : endedEvent({ ...session, ...changes }, completion, outcome, this.messagesOf(session)),
      );
      // An age-only session that ended leaves no identity in its provider's order either (docs/age-verification.md).
      for (const { session, transition } of applied) {
        if (transition.kind !== 'progress' && session.ageOver) await this.providers.find(session.provider)?.forgetCompletion?.(session);
      }
      // The session's timeline (docs/console.md): the same changes, in the same transaction.
      await this.eventLog.append(
        manager,
        applied.map(({ session, changes }) => timelineRow(session, changes)),
        now,
      );
      // Every final result token into the transparency log's queue (docs/transparency.md): one insert, no lock.
      await this.transparency.enqueue(
        manager,
        applied.flatMap(({ outcome }) => (outcome.resultToken ? [outcome.resultToken] : [])),
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

  private messagesOf(session: Session): UserMessageTable | undefined {
    return this.providers.profileOf(session.provider)?.messages;
  }
}
