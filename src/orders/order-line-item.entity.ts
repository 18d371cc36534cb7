import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';
import { OrderEntity } from './order.entity';

export const LINE_ITEM_STATUSES = ['granted', 'unmatched', 'skipped', 'refunded'] as const;
export type LineItemStatus = (typeof LINE_ITEM_STATUSES)[number];

export const SKIPPED_REASONS = ['product_archived'] as const;
export type SkippedReason = (typeof SKIPPED_REASONS)[number];

/**
 * One line item of an order. The primary key (order, store line item) is what makes a line item
 * grant once, however many times and however concurrently its order is posted.
 */
@Entity('order_line_items')
export class OrderLineItemEntity {
  @PrimaryColumn({ type: 'text' })
  order_id: string;

  @PrimaryColumn({ type: 'text' })
  store_line_item_id: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: OrderEntity;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  /** Our product: null when the line item matched none. */
  @Column({ type: 'text', nullable: true })
  product_id: string | null;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ type: 'text' })
  status: LineItemStatus;

  @Column({ type: 'text', nullable: true })
  skipped_reason: SkippedReason | null;

  /** The entitlement granted for it (granted and refunded items). */
  @Column({ type: 'text', nullable: true })
  entitlement_id: string | null;

  /** 0-based order among the order's line items, in the order they were first posted. */
  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
