import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';
import { ProductEntity } from './product.entity';

/**
 * A product's link to a file it delivers (many-to-many, DESIGN §1: links are rows). The pair is
 * unique; `position` orders a product's files as `fulfillment_config.file_ids` lists them; the
 * oldest link of a file names its `product_id` in file responses.
 */
@Entity('product_files')
@Index('product_files_file_idx', ['merchant_id', 'mode', 'file_id', 'created_at'])
@Index('product_files_position_key', ['product_id', 'position'], { unique: true })
export class ProductFileEntity {
  @PrimaryColumn({ type: 'text' })
  product_id: string;

  @PrimaryColumn({ type: 'text' })
  file_id: string;

  @ManyToOne(() => ProductEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'product_id' })
  product?: ProductEntity;

  // Named, not imported: files sit above products (DESIGN §1); the class name is the entity's.
  @ManyToOne('FileEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'file_id' })
  file?: unknown;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  /** 0-based order of the file among the product's files. */
  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
