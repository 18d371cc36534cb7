import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BIGINT_AS_NUMBER } from '../database/bigint-number.transformer';
import { PRIMARY_TIMESTAMP } from '../database/columns';
import { TenantOwnedEntity } from '../database/tenant-owned.entity';

/** One issued download URL: the record of who downloaded which file under which entitlement. */
@Entity('downloads')
@Index('downloads_tenant_file_idx', ['merchant_id', 'mode', 'file_id', 'downloaded_at'])
@Index('downloads_tenant_customer_idx', ['merchant_id', 'mode', 'customer_id', 'downloaded_at'])
export class DownloadEntity extends TenantOwnedEntity {
  @Column({ type: 'text' })
  file_id: string;

  @Column({ type: 'text' })
  entitlement_id: string;

  @Column({ type: 'text' })
  customer_id: string;

  /** Bytes counted against the month's bandwidth for this download. */
  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  bytes: number;

  /** The partition key (monthly partitions), so part of the primary key. */
  @PrimaryColumn(PRIMARY_TIMESTAMP)
  downloaded_at: Date;

  /** The client's address as TRUST_PROXY lets it be told (DESIGN §15); null for downloads recorded before it was kept. */
  @Column({ type: 'text', nullable: true })
  client_address: string | null;
}
