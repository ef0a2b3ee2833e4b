import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, type Repository } from 'typeorm';
import { UpstreamOrder } from './upstream-order.entity.js';

export type NewUpstreamOrder = Pick<UpstreamOrder, 'orderRef' | 'upstream' | 'environment' | 'returnUrlEnc' | 'createdAt'>;

/** Every statement on the upstream sign-ins. */
@Injectable()
export class UpstreamOrderStore {
  constructor(@InjectRepository(UpstreamOrder) private readonly orders: Repository<UpstreamOrder>) {}

  async insert(order: NewUpstreamOrder): Promise<void> {
    await this.orders.insert({ ...order, status: 'created' });
  }

  /** A backchannel request (docs/upstream-oidc.md, "CIBA"): started at once, with no state a callback could use. */
  async insertBackchannel(order: NewUpstreamOrder, secretsEnc: Buffer): Promise<void> {
    await this.orders.insert({ ...order, status: 'started', hintCode: 'outstandingTransaction', secretsEnc });
  }

  /** A backchannel request's pending answer and when to ask again; an order ended meanwhile stays ended. */
  async pendingBackchannel(orderRef: string, hintCode: string, secretsEnc: Buffer): Promise<void> {
    await this.orders.update({ orderRef, status: 'started' }, { hintCode, secretsEnc });
  }

  findByRef(orderRef: string): Promise<UpstreamOrder | null> {
    return this.orders.findOneBy({ orderRef });
  }

  /** A new request to the upstream; a reopened link replaces the earlier state, which then leads nowhere. */
  async begin(orderRef: string, stateHash: Buffer, secretsEnc: Buffer): Promise<boolean> {
    const result = await this.orders.update({ orderRef, status: In(['created', 'started']) }, { status: 'started', stateHash, secretsEnc });
    return result.affected === 1;
  }

  /**
   * The order a callback's state belongs to, claimed in one statement so that a state is used once;
   * only at its own upstream's callback (another upstream's callback leaves the state unused).
   */
  async takeByState(stateHash: Buffer, upstream: string): Promise<UpstreamOrder | null> {
    const result = await this.orders
      .createQueryBuilder()
      .update()
      .set({ stateHash: null })
      .where('state_hash = :stateHash AND status = :status AND upstream = :upstream', { stateHash, status: 'started', upstream })
      .returning('order_ref')
      .execute();
    const [row] = result.raw as { order_ref: string }[];
    return row ? this.findByRef(row.order_ref) : null;
  }

  /** The outcome of a callback; an order cancelled meanwhile stays cancelled. */
  async finish(orderRef: string, outcome: { status: 'complete' | 'failed'; hintCode: string | null; completionEnc: Buffer | null }) {
    await this.orders.update(
      { orderRef, status: 'started' },
      { status: outcome.status, hintCode: outcome.hintCode, completionEnc: outcome.completionEnc, secretsEnc: null },
    );
  }

  async cancel(orderRef: string): Promise<void> {
    await this.orders.update(
      { orderRef, status: In(['created', 'started']) },
      { status: 'failed', hintCode: 'cancelled', stateHash: null, secretsEnc: null },
    );
  }

  /** The identity and evidence a sign-in delivered (docs/age-verification.md); the order keeps its outcome. */
  async forgetCompletion(orderRef: string): Promise<void> {
    await this.orders.update({ orderRef }, { completionEnc: null });
  }

  async purgeCreatedBefore(upstream: string, createdBefore: Date): Promise<void> {
    await this.orders.delete({ upstream, createdAt: LessThan(createdBefore) });
  }
}
