import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { Role } from '../auth/roles';
import { TIMESTAMP } from '../database/columns';

/** A person who signs in to the merchant dashboard (DESIGN §11); belongs to one merchant. */
@Entity('dashboard_users')
export class DashboardUserEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  merchant_id: string;

  @ManyToOne(() => MerchantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: MerchantEntity;

  /** Lower-cased, so sign-in is case-insensitive; unique across merchants (sign-in names no merchant). */
  @Index('dashboard_users_email_key', { unique: true })
  @Column({ type: 'text' })
  email: string;

  /** `scrypt$N$r$p$salt$hash`; null until the user follows the setup link. */
  @Column({ type: 'text', nullable: true })
  password_hash: string | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  /** DESIGN §11: owner, admin, developer, support or viewer; users older than roles became owners. */
  @Column({ type: 'text' })
  role: Role;

  /** Limited to test mode: every live request of the user's sessions is 403. */
  @Column({ type: 'boolean', default: false })
  test_only: boolean;

  /** Set by each successful sign-in; shown in Settings → Team. */
  @Column({ ...TIMESTAMP, nullable: true })
  last_signed_in_at: Date | null;
}
