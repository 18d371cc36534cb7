import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../auth/tenant';
import { TIMESTAMP } from '../database/columns';

/** The outbox: one row per published change, written in the change's own transaction. */
@Entity('events')
@Index('events_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
@Index('events_tenant_type_created_idx', ['merchant_id', 'mode', 'type', 'created_at'])
export class EventEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'text' })
  type: string;

  /** `data.object`: the resource after the change, in its API shape. */
  @Column({ type: 'jsonb' })
  data: { object: Record<string, unknown> };

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
