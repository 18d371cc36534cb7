import { Injectable, OnModuleInit } from '@nestjs/common';
import { WritePart, writeTogether } from '../database/combined-statement';
import { PartitionMaintenance } from '../database/partition-maintenance';
import type { Tenant } from '../database/tenant';
import { assertTenant, TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { DownloadEntity } from './download.entity';

export type NewDownload = WithoutTenant<Omit<DownloadEntity, 'merchant'>>;

/** SQL of downloads: the record of each issued download URL. */
@Injectable()
export class DownloadsRepository implements OnModuleInit {
  private readonly table = new TenantTable(DownloadEntity, 'download');

  constructor(private readonly partitions: PartitionMaintenance) {}

  /** Downloads are partitioned by month (migration MonthlyPartitions), never pruned: their months are made ahead. */
  onModuleInit(): void {
    this.partitions.register({ table: 'downloads', column: 'downloaded_at' });
  }

  /**
   * Records the download and counts it on its file, inside the download's transaction: the same
   * statement as the combined write's parts (`recordCountedParts`), sent on its own. The count
   * takes the file row's lock, which every download of that file queues on, so it runs late in
   * the transaction.
   */
  async recordCounted(tx: Transaction, tenant: Tenant, download: NewDownload): Promise<void> {
    // The file was read in this transaction, so a refusal (it vanished) is never expected.
    await writeTogether(tx.manager, this.recordCountedParts(tenant, download, 'file_gone'));
  }

  /**
   * The file's download_count + 1 and the download's record, as two parts of a combined write (a
   * data-modifying WITH can't nest); refused (`refusal`) when the file is no longer there.
   */
  recordCountedParts(tenant: Tenant, download: NewDownload, refusal: string): WritePart[] {
    assertTenant(tenant);
    return [
      {
        name: 'download_count',
        render: (parameters) =>
          `UPDATE files SET download_count = download_count + 1, updated_at = now()
            WHERE merchant_id = ${parameters.text(tenant.merchantId)} AND mode = ${parameters.text(tenant.mode)} AND id = ${parameters.text(download.file_id)} RETURNING id`,
      },
      {
        name: 'download_record',
        uses: ['download_count'],
        render: (parameters) =>
          `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at, client_address)
            SELECT ${parameters.text(download.id)}, ${parameters.text(tenant.merchantId)}, ${parameters.text(tenant.mode)}, counted.id, ${parameters.text(download.entitlement_id)},
              ${parameters.text(download.customer_id)}, ${parameters.bigint(download.bytes)}, ${parameters.timestamptz(download.downloaded_at)}, ${parameters.text(download.client_address)}
            FROM download_count counted RETURNING id`,
        refusal,
      },
    ];
  }

  /** Downloads and bytes per UTC day since `from` (days without downloads are absent). */
  async dailyTotals(db: Reader, tenant: Tenant, from: Date): Promise<Array<{ day: string; downloads: number; bytes: number }>> {
    const rows: Array<{ day: string; downloads: string; bytes: string }> = await this.table
      .select(db.manager, tenant)
      .select("to_char(date_trunc('day', download.downloaded_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')", 'day')
      .addSelect('count(*)', 'downloads')
      .addSelect('coalesce(sum(download.bytes), 0)', 'bytes')
      .andWhere('download.downloaded_at >= :from', { from })
      .groupBy('day')
      .getRawMany();
    return rows.map((row) => ({ day: row.day, downloads: Number(row.downloads), bytes: Number(row.bytes) }));
  }
}
