import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/**
 * A test-mode clock (DESIGN §14): the customers bound to it live at `frozen_time` instead of the
 * real time, so a merchant's test suite sees day 31 without waiting 30 days.
 */
@Entity('test_clocks')
@Index('test_clocks_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
export class TestClockEntity extends TenantOwnedEntity {
  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column(TIMESTAMP)
  frozen_time: Date;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
