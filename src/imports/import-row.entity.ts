import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { EntitlementImportEntity } from './entitlement-import.entity';

export const IMPORT_ROW_STATUSES = ['pending', 'granted', 'skipped', 'failed'] as const;
export type ImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];

/**
 * One data row of an import, as sent (cells or JSON values), and what became of it. A batch claims
 * pending rows with FOR UPDATE SKIP LOCKED and marks them in the transaction of their grants, so a
 * row is granted at most once, whatever crashes.
 */
@Entity('import_rows')
// The worker's claim: the pending rows of an import, in row order.
@Index('import_rows_pending_idx', ['import_id', 'row_number'], { where: "status = 'pending'" })
export class ImportRowEntity {
  @PrimaryColumn({ type: 'text' })
  import_id: string;

  @ManyToOne(() => EntitlementImportEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'import_id' })
  entitlementImport?: EntitlementImportEntity;

  /** Data rows counted from 1 (a CSV's header row is not counted). */
  @PrimaryColumn({ type: 'integer' })
  row_number: number;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  @Column({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'jsonb' })
  data: unknown;

  @Column({ type: 'text', default: 'pending' })
  status: ImportRowStatus;

  @Column({ type: 'text', nullable: true })
  entitlement_id: string | null;

  @Column({ type: 'text', nullable: true })
  error_code: string | null;

  @Column({ type: 'text', nullable: true })
  error_message: string | null;
}
