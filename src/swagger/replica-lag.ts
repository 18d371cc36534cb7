import type { ApiOperationOptions } from '@nestjs/swagger';

/**
 * What a read served by the replica may miss (DESIGN §15): said on every operation whose service
 * reads `UnitOfWork.replica`, so a client knows which answers can trail its own writes.
 */
export const REPLICA_LAG_NOTE =
  'May lag: with a read replica (DATABASE_READ_URL) this is read from it, so a write of the last moments (the replication delay, usually well under a second) may not show yet. The access check, downloads and reads of one object by id always read the primary.';

/** The operation's options with the replica's lag said at the end of its description. */
export function mayLag(options: ApiOperationOptions): ApiOperationOptions {
  return { ...options, description: options.description ? `${options.description} ${REPLICA_LAG_NOTE}` : REPLICA_LAG_NOTE };
}
