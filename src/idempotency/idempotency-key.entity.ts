import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../auth/tenant';
import { TIMESTAMP } from '../database/columns';

export const IDEMPOTENCY_KEY_STATES = ['in_progress', 'completed'] as const;
export type IdempotencyKeyState = (typeof IDEMPOTENCY_KEY_STATES)[number];

/**
 * One Idempotency-Key of a merchant + mode. The primary key makes the first request the only
 * owner; the others wait for `completed` and replay the stored response.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_created_idx', ['created_at'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'text' })
  merchant_id: string;

  @PrimaryColumn({ type: 'text' })
  mode: ApiMode;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  /** SHA-256 of method, path and canonical JSON body: the "same parameters" test. */
  @Column({ type: 'text' })
  request_hash: string;

  @Column({ type: 'text' })
  state: IdempotencyKeyState;

  /** Random per owner, so an owner whose claim was taken over (stale) cannot overwrite the new one. */
  @Column({ type: 'text' })
  lock_token: string;

  /** When the current owner claimed the key; an in-progress claim older than the timeout is abandoned. */
  @Column(TIMESTAMP)
  locked_at: Date;

  @Column({ type: 'integer', nullable: true })
  response_status: number | null;

  /** The enveloped body as the first client received it; json (not jsonb) keeps its key order. */
  @Column({ type: 'json', nullable: true })
  response_body: unknown;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
