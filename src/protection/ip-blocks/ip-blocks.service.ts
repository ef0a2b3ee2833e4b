import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { protectionConfig, type ProtectionConfig } from '../../config/protection.config.js';
import { clientAddressOf } from '../client-address.js';
import { AddressList } from './address-list.js';
import { IpBlockStore, type BlockPolicy } from './ip-block.store.js';

// How long the copy of the blocks in force may go without a successful sync (IpBlockSyncJob runs
// every second) before checks ask the store again, request by request.
const SYNC_STALE_AFTER_MS = 3_000;

/**
 * Failed-attempt IP blocks (docs/protection.md): fail2ban's rule with maxretry 10, findtime and bantime 15 min.
 *
 * The check runs before every request, so it reads a per-process copy of the blocks in force
 * instead of the store: the copy gets this process's blocks at once and everyone else's at the next
 * sync (at most a second later; a failed attempt on this process learns of its block at once too).
 * A block is never lifted early, so a copied block stays right until it ends. While syncing fails,
 * checks fall back to the store.
 */
@Injectable()
export class IpBlocksService {
  private readonly logger = new Logger(IpBlocksService.name);
  private readonly policy: BlockPolicy;
  private readonly exempt: AddressList;
  private readonly blocksInForce = new Map<string, number>();
  /** performance.now() of the last successful sync: wall time, not the (testable) domain clock. */
  private syncedAt = -Infinity;

  constructor(
    private readonly store: IpBlockStore,
    private readonly clock: Clock,
    @Inject(protectionConfig.KEY) config: ProtectionConfig,
  ) {
    this.policy = config.ipBlock;
    this.exempt = new AddressList(config.ipBlockExempt);
  }

  /**
   * Throws 401 ip_blocked while the client's address is blocked. Synchronous while the copy is fresh
   * (every request asks); a promise only when the store must be asked.
   */
  assertNotBlocked(ip: string): void | Promise<void> {
    if (this.exempt.includes(ip)) return;
    const now = this.clock.now().getTime();
    let address: string;
    try {
      address = clientAddressOf(ip);
    } catch (error) {
      return this.letThrough(error);
    }
    const until = this.blocksInForce.get(address) ?? 0;
    // With Redis away the copy is all there is: the blocks known stay in force (docs/protection.md).
    if (until <= now && performance.now() - this.syncedAt > SYNC_STALE_AFTER_MS && this.store.reachable) {
      return this.store.blockedUntil(address, new Date(now)).then((stored) => {
        const storedUntil = stored?.getTime() ?? 0;
        if (storedUntil > now) this.blocksInForce.set(address, storedUntil);
        refuseUntil(storedUntil, now);
      }, this.letThrough);
    }
    refuseUntil(until, now);
  }

  /** Fail open: a store outage must not lock every client out (docs/protection.md). */
  private readonly letThrough = (error: unknown): void => {
    this.logger.error({ err: error }, 'IP block check failed; request let through');
  };

  /** Copies the blocks in force from the store, and forgets those that have ended. */
  async syncBlocks(): Promise<void> {
    // Redis not answering: the copy stays as it is, and no sync waits out a command timeout.
    if (!this.store.reachable) return;
    const startedAt = performance.now();
    const now = this.clock.now();
    const blocks = await this.store.blocksInForce(now);
    for (const [address, until] of this.blocksInForce) if (until <= now.getTime()) this.blocksInForce.delete(address);
    for (const { address, until } of blocks) {
      if (until.getTime() > (this.blocksInForce.get(address) ?? 0)) this.blocksInForce.set(address, until.getTime());
    }
    this.syncedAt = startedAt;
  }

  /** Counts a failed attempt from the client's address; the one that reaches the threshold blocks it. */
  async recordFailure(ip: string): Promise<void> {
    // An exempt address is never blocked, so its failures are not worth a write either.
    // Nor while Redis does not answer: the request must not wait out a command timeout (docs/protection.md).
    if (this.exempt.includes(ip) || !this.store.reachable) return;
    try {
      const address = clientAddressOf(ip);
      const until = await this.store.recordFailure(address, this.clock.now(), this.policy);
      if (until) {
        this.blocksInForce.set(address, until.getTime());
        this.logger.warn({ address, blockedUntil: until.toISOString() }, 'Address blocked after repeated failed attempts');
      }
    } catch (error) {
      this.logger.error({ err: error }, 'Failed attempt could not be counted');
    }
  }
}

function refuseUntil(until: number, now: number): void {
  if (until <= now) return;
  const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
  throw new DomainException('ip_blocked', `Too many failed authentication attempts from this address; retry after ${retryAfter} s.`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}
