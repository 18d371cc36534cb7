import { Injectable } from '@nestjs/common';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant, TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { DownloadEntity } from './download.entity';

export type NewDownload = WithoutTenant<Omit<DownloadEntity, 'merchant'>>;

/**
 * The download's record and its file's download_count + 1, in one statement: the count takes the
 * file row's lock, which every download of that file queues on, so it runs late in the download's
 * transaction, and one round trip does both.
 */
const RECORD_DOWNLOAD_SQL = `
WITH counted AS (
  UPDATE files SET download_count = download_count + 1, updated_at = now()
  WHERE merchant_id = $2 AND mode = $3 AND id = $4
  RETURNING id
)
INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at, client_address)
SELECT $1, $2, $3, counted.id, $5, $6, $7, $8, $9 FROM counted
RETURNING id`;

/** SQL of downloads: the record of each issued download URL. */
@Injectable()
export class DownloadsRepository {
  private readonly table = new TenantTable(DownloadEntity, 'download');

  /** Records the download and counts it on its file (see RECORD_DOWNLOAD_SQL). */
  async recordCounted(tx: Transaction, tenant: Tenant, download: NewDownload): Promise<void> {
    assertTenant(tenant);
    const rows: unknown[] = await tx.manager.query(RECORD_DOWNLOAD_SQL, [
      download.id,
      tenant.merchantId,
      tenant.mode,
      download.file_id,
      download.entitlement_id,
      download.customer_id,
      download.bytes,
      download.downloaded_at,
      download.client_address,
    ]);
    // No row: the file was not there to count (it was read in this transaction, so never expected).
    if (rows.length !== 1) throw new Error(`File ${download.file_id} vanished while its download was recorded`);
  }

  /**
   * RECORD_DOWNLOAD_SQL as two parts of a combined write (a data-modifying WITH can't nest): the
   * file's count, then the record; refused (`refusal`) when the file is no longer there.
   */
  recordCountedParts(tenant: Tenant, download: NewDownload, refusal: string): WritePart[] {
    assertTenant(tenant);
    return [
      {
        name: 'download_count',
        sql: `UPDATE files SET download_count = download_count + 1, updated_at = now() WHERE merchant_id = $1 AND mode = $2 AND id = $3 RETURNING id`,
        parameters: [tenant.merchantId, tenant.mode, download.file_id],
      },
      {
        name: 'download_record',
        sql: `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at, client_address)
          SELECT $1, $2, $3, counted.id, $4, $5, $6, $7, $8 FROM download_count counted RETURNING id`,
        parameters: [
          download.id,
          tenant.merchantId,
          tenant.mode,
          download.entitlement_id,
          download.customer_id,
          download.bytes,
          download.downloaded_at,
          download.client_address,
        ],
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
