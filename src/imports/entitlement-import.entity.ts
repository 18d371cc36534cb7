import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, UpdateDateColumn } from 'typeorm';
import { TestClockEntity } from '../test-clock-records/test-clock.entity';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The import shows the first this many row errors; every failed row keeps its own in import_rows. */
export const MAX_SHOWN_ERRORS = 1_000;

/** One row's failure as the import reports it (data rows counted from 1). */
export interface ImportRowError {
  row: number;
  code: string;
  message: string;
}

/**
 * A bulk import of entitlements (DESIGN §10) and its progress. Its rows wait in import_rows; the
 * counters move with each committed batch, in that batch's transaction.
 */
@Entity('entitlement_imports')
@Index('entitlement_imports_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
// The worker's turn order: unfinished imports, least recently progressed first.
@Index('entitlement_imports_unfinished_idx', ['updated_at', 'id'], { where: "status IN ('queued', 'running')" })
export class EntitlementImportEntity extends TenantOwnedEntity {
  /** The import's test clock (DESIGN §14): customers its rows create are bound to it. */
  @Column({ type: 'text', nullable: true })
  test_clock_id: string | null;

  // Deleted with its clock, as the clock's customers are.
  @ManyToOne(() => TestClockEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'test_clock_id' })
  test_clock?: TestClockEntity;

  @Column({ type: 'text' })
  status: ImportStatus;

  @Column({ type: 'integer' })
  total_rows: number;

  @Column({ type: 'integer', default: 0 })
  processed_rows: number;

  @Column({ type: 'integer', default: 0 })
  granted: number;

  @Column({ type: 'integer', default: 0 })
  skipped: number;

  @Column({ type: 'integer', default: 0 })
  failed: number;

  /** The first 1,000 row errors, in row order within each batch. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  errors: ImportRowError[];

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;

  @Column({ ...TIMESTAMP, nullable: true })
  completed_at: Date | null;
}
