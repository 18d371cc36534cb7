import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { MERCHANT_ENTITY_NAME } from '../database/tenant-owned.entity';
import type { ApiMode } from '../database/tenant';

/** The portal's branding of one merchant in one mode (DESIGN §19); absent until first changed. */
@Entity('portal_settings')
export class PortalSettingsEntity {
  @PrimaryColumn({ type: 'text' })
  merchant_id: string;

  @ManyToOne(MERCHANT_ENTITY_NAME, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'merchant_id' })
  merchant?: unknown;

  @PrimaryColumn({ type: 'text' })
  mode: ApiMode;

  @Column({ type: 'text', nullable: true })
  display_name: string | null;

  @Column({ type: 'text', nullable: true })
  accent_color: string | null;

  @Column({ type: 'text', nullable: true })
  logo_url: string | null;

  @Column({ type: 'text', nullable: true })
  support_url: string | null;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
