import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import type { ErrorCode } from '../../common/problem-details/error-codes.js';
import { protectionConfig, type ProtectionConfig } from '../../config/protection.config.js';
import { clientAddressOf } from '../client-address.js';
import { IpBlockStore, type BlockPolicy } from './ip-block.store.js';

/**
 * The answers that count as a failed authentication attempt (SPEC 8a): an unknown or revoked key,
 * a bad bearer token, a wrong or spent OTP code. A missing credential does not count.
 */
export const FAILED_ATTEMPT_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'invalid_api_key',
  'invalid_token',
  'invalid_validation_code',
  'validation_code_expired',
]);

// Blocks this process has seen, so a blocked client hammering the service costs no store lookups.
// A block is never lifted early, so remembering one until it ends is always right.
const MAX_REMEMBERED_BLOCKS = 10_000;

/** Failed-attempt IP blocks (SPEC 5): fail2ban's rule with maxretry 10, findtime and bantime 15 min. */
@Injectable()
export class IpBlocksService {
  private readonly logger = new Logger(IpBlocksService.name);
  private readonly policy: BlockPolicy;
  private readonly knownBlocks = new Map<string, number>();

  constructor(
    private readonly store: IpBlockStore,
    private readonly clock: Clock,
    @Inject(protectionConfig.KEY) config: ProtectionConfig,
  ) {
    this.policy = config.ipBlock;
  }

  /** Throws 401 ip_blocked while the client's address is blocked. */
  async assertNotBlocked(ip: string): Promise<void> {
    const now = this.clock.now();
    let until: number;
    try {
      const address = clientAddressOf(ip);
      until = this.knownBlocks.get(address) ?? 0;
      if (until <= now.getTime()) {
        this.knownBlocks.delete(address);
        until = (await this.store.blockedUntil(address, now))?.getTime() ?? 0;
        if (until > now.getTime()) this.remember(address, until);
      }
    } catch (error) {
      // Fail open: a store outage must not lock every client out (docs/protection.md).
      this.logger.error({ err: error }, 'IP block check failed; request let through');
      return;
    }
    if (until <= now.getTime()) return;
    const retryAfter = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    throw new DomainException('ip_blocked', `Too many failed authentication attempts from this address; retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  /** Counts a failed attempt from the client's address; the one that reaches the threshold blocks it. */
  async recordFailure(ip: string): Promise<void> {
    try {
      const address = clientAddressOf(ip);
      const until = await this.store.recordFailure(address, this.clock.now(), this.policy);
      if (until) {
        this.remember(address, until.getTime());
        this.logger.warn({ address, blockedUntil: until.toISOString() }, 'Address blocked after repeated failed attempts');
      }
    } catch (error) {
      this.logger.error({ err: error }, 'Failed attempt could not be counted');
    }
  }

  private remember(address: string, until: number): void {
    // A Map iterates in insertion order: past the cap, forget the oldest entry.
    if (this.knownBlocks.size >= MAX_REMEMBERED_BLOCKS) this.knownBlocks.delete(this.knownBlocks.keys().next().value!);
    this.knownBlocks.set(address, until);
  }
}
