import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';
import { ProductEntity } from '../products/product.entity';

/** "Whoever is granted the trigger product also gets the grant product" (DESIGN §10, source `rule`). */
@Entity('grant_rules')
@Index('grant_rules_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
// Every grant asks for the enabled rules of its product: one indexed lookup.
@Index('grant_rules_trigger_idx', ['merchant_id', 'mode', 'trigger_product_id'], { where: 'enabled' })
export class GrantRuleEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  trigger_product_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_product_id' })
  trigger_product?: ProductEntity;

  @Column({ type: 'text' })
  grant_product_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'grant_product_id' })
  grant_product?: ProductEntity;

  /** Days of access the rule's grant gives; null = the grant product's defaults. */
  @Column({ type: 'integer', nullable: true })
  access_duration_days: number | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
