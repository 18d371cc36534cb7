import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/unit-of-work';
import { DownloadEntity } from './download.entity';

/** SQL of downloads: the record of each issued download URL. */
@Injectable()
export class DownloadsRepository {
  private readonly table = new TenantTable(DownloadEntity, 'download');

  insert(tx: Transaction, tenant: Tenant, download: WithoutTenant<Omit<DownloadEntity, 'merchant'>>): Promise<DownloadEntity> {
    return this.table.insert(tx.manager, tenant, download);
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
