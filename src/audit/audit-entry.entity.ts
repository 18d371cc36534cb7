import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { AuditActorType, AuditStatus } from '../database/audit-trail';
import { TIMESTAMP } from '../database/columns';
import { MERCHANT_ENTITY_NAME } from '../database/tenant-owned.entity';
import type { ApiMode } from '../database/tenant';

/**
 * The audit log (DESIGN §11): one row per successful write, sign-in, failed sign-in, key and team
 * change, written in the change's own statement. Append-only: nothing but AUDIT_RETENTION deletes a
 * row, and no route updates one. Not a TenantOwnedEntity: `mode` is null for what belongs to the
 * merchant's account rather than to one mode (sign-ins, the team).
 */
@Entity('audit_log')
@Index('audit_log_merchant_created_idx', ['merchant_id', 'created_at', 'id'])
@Index('audit_log_merchant_actor_created_idx', ['merchant_id', 'actor_id', 'created_at', 'id'])
@Index('audit_log_merchant_object_created_idx', ['merchant_id', 'object_id', 'created_at', 'id'])
// AUDIT_RETENTION deletes rows by age across merchants (audit-retention.ts).
@Index('audit_log_created_idx', ['created_at'])
export class AuditEntryEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  // Named, not imported: merchants belong to auth (DESIGN §1).
  @ManyToOne(MERCHANT_ENTITY_NAME, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: unknown;

  @Column({ type: 'text', nullable: true })
  mode: ApiMode | null;

  @Column({ type: 'text' })
  actor_type: AuditActorType;

  @Column({ type: 'text' })
  actor_id: string;

  @Column({ type: 'text' })
  actor_label: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text' })
  object_type: string;

  @Column({ type: 'text', nullable: true })
  object_id: string | null;

  @Column({ type: 'text', nullable: true })
  request_id: string | null;

  @Column({ type: 'text', nullable: true })
  client_address: string | null;

  @Column({ type: 'text' })
  status: AuditStatus;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
