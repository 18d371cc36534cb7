import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';
import { ProductEntity } from './product.entity';

/**
 * A bundle's link to a product it includes (DESIGN §10, links are rows, §1). The pair is unique;
 * `position` orders the bundle's `included_product_ids`, and so the order its children are granted in.
 */
@Entity('product_bundle_items')
// "Is this product included in any bundle?" (a product that is can't become a bundle itself).
@Index('product_bundle_items_included_idx', ['included_product_id'])
@Index('product_bundle_items_position_key', ['bundle_product_id', 'position'], { unique: true })
export class ProductBundleItemEntity {
  @PrimaryColumn({ type: 'text' })
  bundle_product_id: string;

  @PrimaryColumn({ type: 'text' })
  included_product_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bundle_product_id' })
  bundle?: ProductEntity;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'included_product_id' })
  included?: ProductEntity;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  /** 0-based order of the product among the bundle's included products. */
  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
