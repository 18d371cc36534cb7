import { Column, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../auth/tenant';

/**
 * The columns every merchant-owned record has: its prefixed id, its merchant (rows go with the
 * merchant) and the mode of the key that created it. Entities extend it; repositories filter on
 * merchant_id and mode in every query.
 */
export abstract class TenantOwnedEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;
}
