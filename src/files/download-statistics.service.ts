import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { DownloadsRepository } from './downloads.repository';

export interface DailyDownloadTotal {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  downloads: number;
  bytes: number;
}

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;

/** Download totals per day for other modules (the dashboard's Overview charts). */
@Injectable()
export class DownloadStatisticsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The last `days` UTC days ending with `now`'s, oldest first, days without downloads as zeros. */
  async dailyTotals(tenant: Tenant, days: number, now: Date): Promise<DailyDownloadTotal[]> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const first = new Date(today - (days - 1) * DAY_MILLISECONDS);
    const found = new Map((await this.downloads.dailyTotals(this.unitOfWork.replica, tenant, first)).map((row) => [row.day, row]));
    return Array.from({ length: days }, (_, index) => {
      const day = new Date(first.getTime() + index * DAY_MILLISECONDS).toISOString().slice(0, 10);
      return found.get(day) ?? { day, downloads: 0, bytes: 0 };
    });
  }
}
