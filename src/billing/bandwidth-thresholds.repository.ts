import { Injectable } from '@nestjs/common';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant } from '../database/tenant-table';
import type { Transaction } from '../database/transaction';

/** The record of bandwidth thresholds reached, per merchant, mode and month (the events' once-only key). */
@Injectable()
export class BandwidthThresholdsRepository {
  /**
   * A combined download's check (after its `bandwidth_charge` part, whose RETURNING it reads): it
   * yields no row, so the write is refused and the download takes its locked path, when the
   * charged month now reaches a threshold not yet recorded. The locked path records it and
   * publishes the event in its transaction; the steady state (below 80 %, or both recorded) costs
   * one primary-key probe and no round trip.
   */
  checkPart(tenant: Tenant, month: string, thresholds: readonly number[], includedBytes: number, refusal: string): WritePart {
    assertTenant(tenant);
    return {
      name: 'bandwidth_threshold',
      uses: ['bandwidth_charge'],
      render: (parameters) =>
        `SELECT 1 FROM bandwidth_charge charge
          WHERE NOT EXISTS (
            SELECT 1 FROM unnest(${parameters.integerArray(thresholds)}) AS reached(threshold)
             WHERE charge.bandwidth_bytes::numeric * 100 >= ${parameters.bigint(includedBytes)}::numeric * reached.threshold
               AND NOT EXISTS (SELECT 1 FROM bandwidth_thresholds recorded
                                WHERE recorded.merchant_id = ${parameters.text(tenant.merchantId)} AND recorded.mode = ${parameters.text(tenant.mode)}
                                  AND recorded.month = ${parameters.text(month)} AND recorded.threshold = reached.threshold))`,
      refusal,
    };
  }

  /**
   * Records the thresholds that are not recorded yet and returns those: the caller publishes
   * their events in the same transaction. A concurrent insert of the same key waits for the other
   * transaction and then inserts nothing, so each threshold is returned once.
   */
  async recordNew(
    tx: Transaction,
    tenant: Tenant,
    reached: { month: string; thresholds: readonly number[]; bandwidthBytes: number; includedBytes: number; at: Date },
  ): Promise<number[]> {
    assertTenant(tenant);
    if (reached.thresholds.length === 0) return [];
    const rows: Array<{ threshold: number }> = await tx.manager.query(
      `INSERT INTO bandwidth_thresholds (merchant_id, mode, month, threshold, bandwidth_bytes, included_bandwidth_bytes, created_at)
       SELECT $1, $2, $3, threshold, $5, $6, $7 FROM unnest($4::smallint[]) AS reached(threshold)
       ON CONFLICT (merchant_id, mode, month, threshold) DO NOTHING
       RETURNING threshold`,
      [tenant.merchantId, tenant.mode, reached.month, reached.thresholds, reached.bandwidthBytes, reached.includedBytes, reached.at],
    );
    return rows.map((row) => Number(row.threshold)).sort((a, b) => a - b);
  }
}
