import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThanOrEqual, type Repository } from 'typeorm';
import type { PendingRow } from '../../database/entity-insert.js';
import { InsertBatcher } from '../../database/insert-batcher.js';
import { PreparedSelect } from '../../database/prepared-select.js';
import { SimulatorOrder, type NewSimulatorOrder, type SimulatorAction } from './simulator-order.entity.js';

/** What a collect reads of an order: its state and, once approved, what the completion reports. */
const COLLECT_COLUMNS = [
  'orderRef',
  'channel',
  'createdAt',
  'scannedAt',
  'action',
  'cancelledAt',
  'endUserIp',
  'userEnc',
  'evidenceEnc',
] as const;
export type CollectedOrder = Pick<SimulatorOrder, (typeof COLLECT_COLUMNS)[number]>;

/** Every statement on the simulator's order book. */
@Injectable()
export class SimulatorOrderStore {
  private readonly newOrders: InsertBatcher<SimulatorOrder>;
  /** The collector reads its batches' orders through this: the columns a collect needs, not the whole order. */
  private readonly ordersByRef: PreparedSelect<SimulatorOrder, (typeof COLLECT_COLUMNS)[number]>;

  constructor(@InjectRepository(SimulatorOrder) private readonly orders: Repository<SimulatorOrder>) {
    this.newOrders = new InsertBatcher(orders.manager.connection, SimulatorOrder);
    this.ordersByRef = new PreparedSelect(orders.manager.connection, SimulatorOrder, 'order_ref = ANY ($1::uuid[])', COLLECT_COLUMNS);
  }

  insert(order: NewSimulatorOrder): Promise<void> {
    return this.newOrders.insert(order as SimulatorOrder);
  }

  /** The order as a row for another table's INSERT to write with its own (a session's, docs/performance.md). */
  rowOf(order: NewSimulatorOrder): PendingRow {
    return this.newOrders.rowOf(order as SimulatorOrder);
  }

  getByRef(orderRef: string): Promise<SimulatorOrder> {
    return this.orders.findOneByOrFail({ orderRef });
  }

  findByRefs(orderRefs: string[]): Promise<CollectedOrder[]> {
    return this.ordersByRef.many([orderRefs]);
  }

  /** A digital ID card the simulated app showed (docs/idcard.md). */
  findIdCard(cardId: string): Promise<SimulatorOrder | null> {
    return this.orders.findOneBy({ orderRef: cardId, operation: 'idcard' });
  }

  findByQrStartToken(qrStartToken: string): Promise<SimulatorOrder | null> {
    return this.orders.findOneBy({ qrStartToken });
  }

  findByAutoStartTokenHash(autoStartTokenHash: Buffer): Promise<SimulatorOrder | null> {
    return this.orders.findOneBy({ autoStartTokenHash });
  }

  /** The phone order for this person inserted last that nobody answered or cancelled yet. */
  findNewestWaitingPhoneOrder(personalNumberHash: Buffer): Promise<SimulatorOrder | null> {
    return this.orders.findOne({
      where: { personalNumberHash, channel: 'phone', scannedAt: IsNull(), cancelledAt: IsNull() },
      // Not created_at: two orders started within one clock instant share it.
      order: { seq: 'DESC' },
    });
  }

  async cancel(orderRef: string, now: Date): Promise<void> {
    await this.orders.update({ orderRef, cancelledAt: IsNull() }, { cancelledAt: now });
  }

  /** Records the app's scan unless another scan or a cancel came first; false then. */
  async claimScan(
    orderRef: string,
    scan: { scannedAt: Date; action: SimulatorAction; userEnc: Buffer; evidenceEnc: Buffer | null },
  ): Promise<boolean> {
    const claimed = await this.orders.update({ orderRef, scannedAt: IsNull(), cancelledAt: IsNull() }, scan);
    return Boolean(claimed.affected);
  }

  /**
   * Who answered the order and from where: the identity, its evidence, the device address. A phone
   * order keeps the keyed hash of the number called, which its kind requires (docs/age-verification.md).
   */
  async forgetCompletion(orderRef: string): Promise<void> {
    await this.orders.update({ orderRef }, { userEnc: null, evidenceEnc: null, endUserIp: null });
  }

  async deleteCreatedBefore(createdBefore: Date): Promise<void> {
    await this.orders.delete({ createdAt: LessThanOrEqual(createdBefore) });
  }
}
