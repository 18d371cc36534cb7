import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { PRIMARY_TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** The outbox: one row per published change, written in the change's own transaction. */
@Entity('events')
@Index('events_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('events_tenant_type_created_idx', ['merchant_id', 'mode', 'type', 'created_at'])
@Index('events_tenant_object_created_idx', ['merchant_id', 'mode', 'object_id', 'created_at', 'id'])
// EVENT_RETENTION deletes events by age across tenants (event-retention.repository.ts).
@Index('events_created_idx', ['created_at'])
export class EventEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  type: string;

  /** `data.object`: the resource after the change, in its API shape. */
  @Column({ type: 'jsonb' })
  data: { object: Record<string, unknown>; test_clock?: string };

  /**
   * `data.object.id`, kept by PostgreSQL itself (a stored generated column: one definition, filled
   * for old rows when the column was added), so GET /v1/events?object_id= is an index lookup.
   */
  @Column({ type: 'text', nullable: true, generatedType: 'STORED', asExpression: "data -> 'object' ->> 'id'", insert: false, update: false })
  object_id: string | null;

  /** The partition key (monthly partitions: database/monthly-partitions.ts), so part of the primary key; set by the database. */
  @PrimaryColumn({ ...PRIMARY_TIMESTAMP, default: () => 'now()' })
  created_at: Date;
}
