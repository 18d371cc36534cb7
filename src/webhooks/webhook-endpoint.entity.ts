import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** Why an endpoint stopped receiving: its owner said so, or it answered 410 Gone. */
export const DISABLED_REASONS = ['manual', 'endpoint_gone'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

@Entity('webhook_endpoints')
@Index('webhook_endpoints_tenant_created_idx', ['merchant_id', 'mode', 'created_at', 'id'])
export class WebhookEndpointEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `['*']` or a list of event types. */
  @Column({ type: 'text', array: true })
  enabled_events: string[];

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /**
   * WEBHOOK_ALLOW_PRIVATE_URLS of the instance that checked the URL (at registration, or when
   * the URL changed): every instance sends to this endpoint under the same decision.
   */
  @Column({ type: 'boolean', default: false })
  private_urls_allowed: boolean;

  @Column({ type: 'text', nullable: true })
  disabled_reason: DisabledReason | null;

  /** `whsec_…`; never returned except on creation and rotation. */
  @Column({ type: 'text' })
  secret: string;

  /** After a rotation the old secret keeps signing (alongside the new one) until it expires. */
  @Column({ type: 'text', nullable: true })
  previous_secret: string | null;

  @Column({ ...TIMESTAMP, nullable: true })
  previous_secret_expires_at: Date | null;

  @CreateDateColumn(TIMESTAMP)
  created_at: Date;

  @UpdateDateColumn(TIMESTAMP)
  updated_at: Date;
}
