import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { DashboardUserEntity } from './dashboard-user.entity';

/** A one-time link where a dashboard user sets a password; only the token's SHA-256 is stored. */
@Entity('dashboard_setup_links')
@Index('dashboard_setup_links_user_idx', ['user_id'])
// The Pruner deletes used and expired links by these (dashboard-pruning.repository.ts).
@Index('dashboard_setup_links_used_idx', ['used_at'], { where: 'used_at IS NOT NULL' })
@Index('dashboard_setup_links_expires_idx', ['expires_at'])
export class DashboardSetupLinkEntity {
  @PrimaryColumn({ type: 'text' })
  token_hash: string;

  @Column({ type: 'text' })
  user_id: string;

  @ManyToOne(() => DashboardUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: DashboardUserEntity;

  @Column(TIMESTAMP)
  expires_at: Date;

  /** Set when the password is chosen: a link works once. */
  @Column({ ...TIMESTAMP, nullable: true })
  used_at: Date | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;
}
