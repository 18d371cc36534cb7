import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiMode } from '../database/tenant';
import { PRIMARY_TIMESTAMP, TIMESTAMP } from '../database/columns';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** One HTTP attempt of a delivery, as listed by GET /v1/webhook-endpoints/{id}/deliveries. */
@Entity('webhook_delivery_attempts')
@Index('webhook_delivery_attempts_endpoint_idx', ['endpoint_id', 'attempted_at', 'id'])
// GET /v1/events/{id}/deliveries: one event's attempts, to every endpoint.
@Index('webhook_delivery_attempts_event_idx', ['event_id', 'attempted_at', 'id'])
// GET /v1/webhook-deliveries: the tenant's attempts to every endpoint, newest first.
@Index('webhook_delivery_attempts_tenant_idx', ['merchant_id', 'mode', 'attempted_at', 'id'])
// EVENT_RETENTION deletes attempts by age (event-retention.repository.ts).
@Index('webhook_delivery_attempts_attempted_idx', ['attempted_at'])
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn({ type: 'text' })
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

  @Column({ type: 'text' })
  event_type: string;

  /** 1 for the first attempt of a delivery. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'boolean' })
  succeeded: boolean;

  @Column({ type: 'integer', nullable: true })
  status_code: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer' })
  duration_ms: number;

  /** The first 1 KiB of the response body. */
  @Column({ type: 'text', nullable: true })
  response_body: string | null;

  /** The partition key (monthly partitions), so part of the primary key. */
  @PrimaryColumn(PRIMARY_TIMESTAMP)
  attempted_at: Date;

  /** When the next retry is due; null when this attempt succeeded or was the last. */
  @Column({ ...TIMESTAMP, nullable: true })
  next_attempt_at: Date | null;
}
