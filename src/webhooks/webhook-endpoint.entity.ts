import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { WebhookEventType } from './webhook-event-types.js';

/** Why an endpoint stopped receiving: its owner, 5 days of failures, or a 410 Gone answer. */
export type EndpointDisabledReason = 'manual' | 'failing' | 'gone';

@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  /** Sessions started with keys of this environment are sent here. */
  @Column('text')
  environment: ApiKeyEnvironment;

  @Column('text')
  url: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { name: 'event_types', array: true })
  eventTypes: WebhookEventType[];

  /** The signing secret (`whsec_…`), encrypted; shown only at creation and rotation. */
  @Column('bytea', { name: 'secret_enc', select: false })
  secretEnc: Buffer;

  /** The secret before the last rotation, still signing beside the new one until it expires. */
  @Column('bytea', { name: 'previous_secret_enc', nullable: true, select: false })
  previousSecretEnc: Buffer | null;

  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column('timestamptz', { name: 'disabled_at', nullable: true })
  disabledAt: Date | null;

  @Column('text', { name: 'disabled_reason', nullable: true })
  disabledReason: EndpointDisabledReason | null;

  /** The first failed attempt since the last success; five days of it disable the endpoint. */
  @Column('timestamptz', { name: 'failing_since', nullable: true })
  failingSince: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
