import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Plan } from './plans.js';

@Entity('teams')
export class Team {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  plan: Plan;

  /** Features granted on top of the plan's (CLI `--features`). */
  @Column('text', { name: 'extra_features', array: true })
  extraFeatures: string[];

  @Column('boolean', { name: 'has_subscription' })
  hasSubscription: boolean;

  /** Null with a subscription means it does not end (the first-start dev team). */
  @Column('timestamptz', { name: 'subscription_ends_at', nullable: true })
  subscriptionEndsAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
