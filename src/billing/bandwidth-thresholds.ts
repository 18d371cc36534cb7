import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { BandwidthThresholdsRepository } from './bandwidth-thresholds.repository';

/** Percents of the included bandwidth at which usage.bandwidth_threshold is published (DESIGN §17). */
export const BANDWIDTH_THRESHOLDS = [80, 100] as const;

/** A combined download refused because it reached a threshold: its locked path records and publishes it. */
const THRESHOLD_REACHED = 'bandwidth_threshold';

/** Remembered cap refusals, so a refused burst asks the database once per month, not per refusal. */
const KNOWN_CAP_ENTRIES = 10_000;

export interface ReachedBandwidth {
  month: string;
  bandwidthBytes: number;
  includedBytes: number;
  at: Date;
}

/** Thresholds `bandwidthBytes` reaches, in integers (BigInt: past 2^53 / 100 numbers would round). */
export function reachedThresholds(bandwidthBytes: number, includedBytes: number): number[] {
  return BANDWIDTH_THRESHOLDS.filter((threshold) => BigInt(bandwidthBytes) * 100n >= BigInt(includedBytes) * BigInt(threshold));
}

/**
 * usage.bandwidth_threshold, once per merchant, mode, month and threshold: the event is published
 * in the transaction that records the threshold (bandwidth_thresholds' key refuses a second), and
 * that transaction is the download's own (its locked path), so a download that rolls back
 * publishes nothing and a committed one cannot lose its event.
 */
@Injectable()
export class BandwidthThresholds {
  private readonly knownCaps = new LRUCache<string, true>({ max: KNOWN_CAP_ENTRIES });

  constructor(
    private readonly repository: BandwidthThresholdsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  checkPart(tenant: Tenant, month: string, includedBytes: number): WritePart {
    return this.repository.checkPart(tenant, month, BANDWIDTH_THRESHOLDS, includedBytes, THRESHOLD_REACHED);
  }

  /** Records and publishes, in the download's transaction, each threshold its charge reached for the first time. */
  async publishReached(tx: Transaction, tenant: Tenant, reached: ReachedBandwidth): Promise<void> {
    await this.publish(tx, tenant, reached, reachedThresholds(reached.bandwidthBytes, reached.includedBytes));
  }

  /** The free plan's cap refused a download: 100 % is published, if it was not already, in a transaction of its own. */
  async publishCapReached(tenant: Tenant, reached: ReachedBandwidth): Promise<void> {
    const key = `${tenant.merchantId}:${tenant.mode}:${reached.month}`;
    if (this.knownCaps.has(key)) return;
    await this.unitOfWork.run((tx) => this.publish(tx, tenant, reached, [100]));
    this.knownCaps.set(key, true);
  }

  private async publish(tx: Transaction, tenant: Tenant, reached: ReachedBandwidth, thresholds: readonly number[]): Promise<void> {
    const recorded = await this.repository.recordNew(tx, tenant, { ...reached, thresholds });
    await tx.publishMany(
      'usage.bandwidth_threshold',
      tenant,
      recorded.map((threshold) => ({
        month: reached.month,
        threshold,
        bandwidth_bytes: reached.bandwidthBytes,
        included_bandwidth_bytes: reached.includedBytes,
      })),
    );
  }
}
