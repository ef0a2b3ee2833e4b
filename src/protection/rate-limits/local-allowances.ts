import type { KeyLimits, QuotaUsage } from './quota.store.js';

/** The largest block a process asks for; the store grants at most 1% of what is left (docs/protection.md, "Allowance"). */
export const MAX_BLOCK = 64;

/** Admissions the store has already counted for this process, usable until used or until their second ends. */
interface Block {
  second: number;
  monthStart: Date;
  left: number;
  /** The store's answer to the reservation: what every admission from the block reports. */
  usage: QuotaUsage;
  timer: NodeJS.Timeout;
}

interface KeyState {
  limits: string;
  month: number;
  /** Addresses the store has said are in the key's set this month: sets only grow within a month. */
  addresses: Set<string>;
  second: number;
  /** Requests this process saw for the key in `second` and in the second before it. */
  seen: number;
  seenBefore: number;
  block: Block | null;
}

/** Gives unused admissions back to the month's count and to the bucket of the second they were counted for. */
export type GiveBack = (apiKeyId: string, unused: { monthStart: Date; second: number; count: number }) => Promise<void>;

const secondOf = (now: Date): number => Math.floor(now.getTime() / 1000);
const monthOf = (now: Date): number => now.getUTCFullYear() * 100 + now.getUTCMonth();
const signatureOf = (limits: KeyLimits): string => `${limits.perMinute}/${limits.monthly}/${limits.addresses}`;

/**
 * One process's allowances (docs/protection.md, "Allowance"): a key this process sees often and
 * that is far from its limits gets a block of admissions counted in the store in one statement, and
 * its next requests in the same second are admitted here without touching the key's row.
 */
export class LocalAllowances {
  private readonly keys = new Map<string, KeyState>();
  private readonly givingBack = new Set<Promise<void>>();
  private sweptSecond = 0;

  constructor(
    private readonly giveBack: GiveBack,
    private readonly maxBlock = MAX_BLOCK,
  ) {}

  /** Admits the request from the key's block when it can; null: ask the store. */
  take(apiKeyId: string, address: string, now: Date, limits: KeyLimits): QuotaUsage | null {
    const second = secondOf(now);
    this.sweep(second);
    const state = this.stateOf(apiKeyId, now, limits);
    const block = state.block;
    if (!block) return null;
    if (block.second !== second) {
      this.close(apiKeyId, state);
      return null;
    }
    // An address the key has not been seen with this month needs the store's exact IP check.
    if (limits.addresses !== null && !state.addresses.has(address)) return null;
    block.left -= 1;
    if (block.left === 0) this.close(apiKeyId, state);
    return { ...block.usage, addressKnown: limits.addresses !== null };
  }

  /** How many admissions to ask the store for: a quarter of the key's recent requests here, 1 below 8. */
  blockWanted(apiKeyId: string): number {
    const state = this.keys.get(apiKeyId);
    const wanted = state ? Math.floor((state.seen + state.seenBefore) / 4) : 1;
    return Math.max(1, Math.min(this.maxBlock, wanted));
  }

  /** Takes in the store's answer: learns the address, and keeps the admissions granted beyond this request. */
  record(apiKeyId: string, address: string, now: Date, limits: KeyLimits, usage: QuotaUsage, granted: number): void {
    const state = this.stateOf(apiKeyId, now, limits, false);
    if (usage.accepted && usage.addressKnown && limits.addresses !== null) state.addresses.add(address);
    if (granted <= 1) return;
    const second = secondOf(now);
    const current = state.block;
    if (current && current.second === second) {
      // Reservations that ran at the same time pool their admissions; the later count is the truer one.
      current.left += granted - 1;
      if (usage.monthCount > current.usage.monthCount) current.usage = usage;
      return;
    }
    if (current) this.close(apiKeyId, state);
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const block: Block = {
      second,
      monthStart,
      left: granted - 1,
      usage,
      // The block ends with its second even if no request of the key comes to notice it.
      timer: setTimeout(() => state.block === block && this.close(apiKeyId, state), 1000 - (now.getTime() % 1000)).unref(),
    };
    state.block = block;
  }

  /** Closes every block and waits until their unused admissions are given back (a process stopping). */
  async closeAll(): Promise<void> {
    for (const [apiKeyId, state] of this.keys) this.close(apiKeyId, state);
    await Promise.all(this.givingBack);
  }

  private close(apiKeyId: string, state: KeyState): void {
    const block = state.block;
    if (!block) return;
    state.block = null;
    clearTimeout(block.timer);
    if (block.left === 0) return;
    const unused = { monthStart: block.monthStart, second: block.second, count: block.left };
    const pending = this.giveBack(apiKeyId, unused).finally(() => this.givingBack.delete(pending));
    this.givingBack.add(pending);
  }

  private stateOf(apiKeyId: string, now: Date, limits: KeyLimits, counts = true): KeyState {
    const second = secondOf(now);
    const month = monthOf(now);
    const signature = signatureOf(limits);
    let state = this.keys.get(apiKeyId);
    if (!state || state.limits !== signature || state.month !== month) {
      // New limits or a new month: what this process knew of the key no longer holds.
      if (state) this.close(apiKeyId, state);
      state = { limits: signature, month, addresses: new Set(), second, seen: 0, seenBefore: 0, block: null };
      this.keys.set(apiKeyId, state);
    }
    if (state.second !== second) {
      state.seenBefore = second === state.second + 1 ? state.seen : 0;
      state.seen = 0;
      state.second = second;
    }
    if (counts) state.seen += 1;
    return state;
  }

  /** Once a second: forgets keys this process has not seen for two seconds, so memory follows traffic. */
  private sweep(second: number): void {
    if (second === this.sweptSecond) return;
    this.sweptSecond = second;
    for (const [apiKeyId, state] of this.keys) {
      if (state.second < second - 1 || state.second > second) {
        this.close(apiKeyId, state);
        this.keys.delete(apiKeyId);
      }
    }
  }
}
