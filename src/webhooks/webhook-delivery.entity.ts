import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';
import { EventEntity } from './event.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Pending deliveries that hold back their endpoint's later ones: untried, or leased (in flight, or
 * a dead instance's lease waiting to lapse). So each endpoint receives events in order when
 * nothing fails.
 */
export const BLOCKING_DELIVERY = "status = 'pending' AND (attempt_count = 0 OR locked_until IS NOT NULL)";
/** Pending deliveries waiting for their retry: tried and not leased. They hold nothing back. */
export const WAITING_RETRY = "status = 'pending' AND attempt_count > 0 AND locked_until IS NULL";

/**
 * The delivery queue: one row per (event, endpoint), written in the event's transaction. Internal;
 * the API shows its attempts. The identity column orders deliveries per endpoint by creation.
 */
@Entity('webhook_deliveries')
// The claim's two ways in (webhook-deliveries.repository.ts): each endpoint's first blocking
// delivery, and retries that are due. The claim uses the same predicates, so PostgreSQL can use them.
@Index('webhook_deliveries_blocking_idx', ['endpoint_id', 'id'], { where: BLOCKING_DELIVERY })
@Index('webhook_deliveries_retry_due_idx', ['next_attempt_at'], { where: WAITING_RETRY })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'text' })
  endpoint_id: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: 'text' })
  event_id: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: EventEntity;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempt_count: number;

  @Column(TIMESTAMP)
  next_attempt_at: Date;

  /** Lease of the instance sending it; an expired lease (crashed instance) makes it claimable again. */
  @Column({ ...TIMESTAMP, nullable: true })
  locked_until: Date | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
