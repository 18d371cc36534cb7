import { Column, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiMode } from './tenant';

/** The merchants table's entity class name, which the relation below is resolved by. */
export const MERCHANT_ENTITY_NAME = 'MerchantEntity';

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

  // Named, not imported: merchants belong to auth, a layer above this one (DESIGN §1).
  @ManyToOne(MERCHANT_ENTITY_NAME, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: unknown;

  @Column({ type: 'text' })
  mode: ApiMode;
}
