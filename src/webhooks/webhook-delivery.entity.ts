import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ApiMode } from '../database/tenant';
import { PRIMARY_TIMESTAMP, TIMESTAMP } from '../database/columns';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Pending deliveries that hold back the later deliveries of their object to their endpoint:
 * untried, or leased (in flight, or a dead instance's lease waiting to lapse). So an endpoint
 * receives the events of one object in order when nothing fails (DESIGN §8).
 */
export const BLOCKING_DELIVERY = "status = 'pending' AND (attempt_count = 0 OR locked_until IS NOT NULL)";
/** Pending deliveries waiting for their retry: tried and not leased. They hold nothing back. */
export const WAITING_RETRY = "status = 'pending' AND attempt_count > 0 AND locked_until IS NULL";
/** Pending deliveries with a lease: in flight while it lasts. They count against their endpoint's concurrency. */
export const LEASED_DELIVERY = "status = 'pending' AND locked_until IS NOT NULL";

/** Deliveries that are done, delivered or given up: the only ones EVENT_RETENTION deletes. */
export const SETTLED_DELIVERY = "status <> 'pending'";
/** Deliveries still to be sent: their events are kept whatever their age. */
export const PENDING_DELIVERY = "status = 'pending'";

/**
 * The delivery queue: one row per (event, endpoint), written in the event's transaction. Internal;
 * the API shows its attempts. The identity column orders deliveries per endpoint by creation.
 */
@Entity('webhook_deliveries')
// The claim's ways in (webhook-deliveries.repository.ts): each endpoint's blocking deliveries in
// order, the earlier blocking delivery of an object, retries that are due, and the leases that
// count against an endpoint's concurrency. The claim uses the same predicates, so PostgreSQL can use them.
@Index('webhook_deliveries_blocking_idx', ['endpoint_id', 'id'], { where: BLOCKING_DELIVERY })
@Index('webhook_deliveries_object_blocking_idx', ['endpoint_id', 'object_id', 'id'], { where: BLOCKING_DELIVERY })
@Index('webhook_deliveries_retry_due_idx', ['next_attempt_at'], { where: WAITING_RETRY })
@Index('webhook_deliveries_leased_idx', ['endpoint_id'], { where: LEASED_DELIVERY })
// EVENT_RETENTION's deletes (event-retention.repository.ts): settled deliveries by age; an event's
// pending deliveries (the events' NOT EXISTS); an event's deliveries (the events' ON DELETE CASCADE).
@Index('webhook_deliveries_settled_created_idx', ['created_at'], { where: SETTLED_DELIVERY })
@Index('webhook_deliveries_pending_event_idx', ['event_id'], { where: PENDING_DELIVERY })
@Index('webhook_deliveries_event_idx', ['event_id'])
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

  /**
   * No foreign key: events are partitioned by month, and a key into them would need the event's
   * created_at too. A delivery is written by its event's statement and pruned before it
   * (migration MonthlyPartitions says how integrity is kept).
   */
  @Column({ type: 'text' })
  event_id: string;

  /**
   * The id of the event's object (`data.object.id`: the entitlement, order, product...), or the
   * event's own id when it has none. Deliveries of one object to one endpoint go out in order;
   * those of different objects concurrently (DESIGN §8).
   */
  @Column({ type: 'text' })
  object_id: string;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempt_count: number;

  @Column(TIMESTAMP)
  next_attempt_at: Date;

  /** Lease of the instance sending it; an expired lease (crashed instance) makes it claimable again. */
  @Column({ ...TIMESTAMP, nullable: true })
  locked_until: Date | null;

  /** The partition key (monthly partitions), so part of the primary key; set by the database, like its event's. */
  @PrimaryColumn({ ...PRIMARY_TIMESTAMP, default: () => 'now()' })
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
