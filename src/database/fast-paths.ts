import { Injectable } from '@nestjs/common';

/**
 * Whether requests try their combined (one read, one write) path before the transaction that
 * decides everything else: always, in service. A fast path is an optimisation of the transaction
 * path, never a second implementation; the differential test (test/e2e/paths-agree.e2e-spec.ts)
 * turns this off to send the same requests through the transaction path alone and compares what
 * both wrote, published and answered. A test hook only: no route, setting or header reaches it.
 */
@Injectable()
export class FastPaths {
  enabled = true;
}
