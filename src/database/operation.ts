import type { AuditContext } from './audit-trail';
import type { WritePart } from './combined-statement';
import type { Tenant } from './tenant';
import type { Transaction } from './transaction';

/** What a request authenticated with: an API key, a dashboard user's browser session (DESIGN §11), or a customer's portal session (§19). */
export type CredentialKind = 'api-key' | 'dashboard-session' | 'portal-session';

/**
 * The idempotency record of one request, written inside the request's transaction (DESIGN §13).
 * Implemented by the idempotency module; UnitOfWork only calls it, so it needs no table of its own.
 */
export interface IdempotencyClaim {
  /** The transaction's first statement: takes the key, or throws when another request has it. */
  acquire(tx: Transaction): Promise<void>;
  /**
   * Stores the complete response built from the result: a part of the transaction's closing
   * statement (with the outbox's parts), sent just before the commit.
   */
  completionPart(result: unknown): WritePart;
  /**
   * A combined write's part (`UnitOfWork.runCombined`): the key taken with its complete response in
   * one insert, refused (rolling the whole statement back) when another request has the key.
   */
  takenWithResponsePart(result: unknown): WritePart;
  /** The transaction rolled back (it lost a race) and will run again: the key is not held any more. */
  rolledBack(): void;
}

/**
 * What a write request runs as: its tenant and, when it carries an Idempotency-Key, the claim
 * that records its response. Controllers get one from @CurrentOperation() and hand it to the
 * service, which passes it to UnitOfWork.run; nothing travels implicitly (no AsyncLocalStorage,
 * whose promise hooks would cost every request, the access check included).
 */
export interface Operation {
  readonly tenant: Tenant;
  readonly idempotency: IdempotencyClaim | null;
  /** Who asked: a dashboard session's grants have source `manual` (DESIGN §10); absent for the CLI and background work. */
  readonly credential?: CredentialKind;
  /**
   * What the write records in the audit log (DESIGN §11), in its own closing statement; set by
   * @CurrentOperation for every authenticated request, absent for background work.
   */
  readonly audit?: AuditContext | null;
}

/** An operation without an idempotency key (the CLI, background work, tests). */
export function operationFor(tenant: Tenant): Operation {
  return { tenant, idempotency: null };
}
