import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** The outbox: one row per published change, written in the change's own transaction. */
@Entity('events')
@Index('events_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('events_tenant_type_created_idx', ['merchant_id', 'mode', 'type', 'created_at'])
// EVENT_RETENTION deletes events by age across tenants (event-retention.repository.ts).
@Index('events_created_idx', ['created_at'])
export class EventEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  type: string;

  /** `data.object`: the resource after the change, in its API shape. */
  @Column({ type: 'jsonb' })
  data: { object: Record<string, unknown> };

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
