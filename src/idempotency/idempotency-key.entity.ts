import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { ApiMode } from '../database/tenant';
import { TIMESTAMP } from '../database/columns';

/**
 * One Idempotency-Key of a merchant + mode and the response it answered with. The row is inserted
 * by the first statement of the request's transaction and its response stored by the last, so it
 * becomes visible, complete, exactly when the effect commits (DESIGN §13): there is no
 * "in progress" state a crash could leave behind. The primary key makes a concurrent request with
 * the key wait for the first one's commit.
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

  @Column({ type: 'integer' })
  response_status: number;

  /**
   * The enveloped body as the first client received it; json (not jsonb) keeps its key order.
   * Null only inside the inserting transaction, before its last statement stores it.
   */
  @Column({ type: 'json', nullable: true })
  response_body: unknown;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
