import { Injectable } from '@nestjs/common';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { EventType } from '../database/domain-event';
import type { Tenant } from '../database/tenant';
import type { ReadPart } from '../database/combined-statement';
import type { CombinedWrite, Reader, Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';
import { effectiveStatus } from './effective-status';
import { EntitlementOperation } from './entitlement-state-machine';
import { EntitlementEntity, EntitlementStatus } from './entitlement.entity';
import { ChangedEntitlement, toEntitlementResponse } from './entitlement.mapper';
import { refuseIfExpiredAtOnce, stateOf } from './entitlement-state';
import { refuseUnlessFutureExpiry, useRefusal } from './entitlement-bounds';
import { storedJsonb } from '../database/jsonb';
import { Apply, planOperation } from './operation-plan';
import { EntitlementsRepository } from './entitlements.repository';

/** The changes reactivate may bring (undefined = keep, null = remove the bound). */
export interface ReactivateChanges {
  expiresAt?: Date | null;
  usageLimit?: number | null;
}

/** The changes of an update (PATCH); undefined = keep. */
export interface UpdateChanges {
  expiresAt?: Date | null;
  usageLimit?: number | null;
  metadata?: Record<string, unknown>;
}

/** An entitlement locked for a use by another module (downloads), with its effective status. */
export interface LockedEntitlement {
  id: string;
  customerId: string;
  productId: string;
  status: EntitlementStatus;
  expiresAt: Date | null;
}

/** An entitlement read (not locked) for a use in a combined write: its row version goes with it. */
export interface VersionedEntitlement extends LockedEntitlement {
  version: string;
  /** The customer's now, at which `status` was judged: its test clock's frozen time when bound to one (DESIGN §14). */
  customerNow: Date;
}

/**
 * The lifecycle's transitions (DESIGN §5), each inside the caller's transaction (`tx`): every
 * operation on an existing entitlement and its uses. Exported for the other modules that change or
 * use entitlements (downloads, subscriptions, orders' refunds, the sweeper), so a rule and its
 * event live in one place. An operation locks the row, reads its effective status, asks the
 * transition table, applies and publishes one event; of N concurrent operations on one
 * entitlement each sees the result of the previous.
 */
@Injectable()
export class EntitlementTransitionsService {
  /** The row behind each LockedEntitlement `lock` handed out, so a use in the same transaction needn't read it again. */
  private readonly lockedRows = new WeakMap<LockedEntitlement, EntitlementEntity>();

  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly customers: CustomerRecordsService,
    private readonly time: TestClockTime,
  ) {}

  suspend(tx: Transaction, tenant: Tenant, entitlementId: string, reason: string | null): Promise<ChangedEntitlement> {
    const apply: Apply = (state, now) => {
      state.suspended_at = now;
      state.suspension_reason = reason;
    };
    return this.operate(tx, tenant, entitlementId, 'suspend', 'entitlement.suspended', apply, apply);
  }

  revoke(tx: Transaction, tenant: Tenant, entitlementId: string, reason: string | null): Promise<ChangedEntitlement> {
    const apply: Apply = (state, now) => {
      state.revoked_at = now;
      state.revocation_reason = reason;
    };
    return this.operate(tx, tenant, entitlementId, 'revoke', 'entitlement.revoked', apply, apply);
  }

  reactivate(tx: Transaction, tenant: Tenant, entitlementId: string, changes: ReactivateChanges): Promise<ChangedEntitlement> {
    const apply: Apply = (state, now) => {
      if (changes.expiresAt !== undefined) state.expires_at = changes.expiresAt;
      if (changes.usageLimit !== undefined) state.usage_limit = changes.usageLimit;
      refuseIfExpiredAtOnce(state, now, 'Reactivating', 'pass a later expires_at (or null) in the reactivate body', 'pass a higher usage_limit (or null) in the reactivate body');
      state.suspended_at = null;
      state.suspension_reason = null;
    };
    // Children take the parent's new expiry; a child whose own uses have run out stays expired.
    const applyToChild: Apply = (state, now, parent) => {
      state.expires_at = parent?.expires_at ?? state.expires_at;
      refuseIfExpiredAtOnce(state, now, 'Reactivating', '', '');
      state.suspended_at = null;
      state.suspension_reason = null;
    };
    return this.operate(tx, tenant, entitlementId, 'reactivate', 'entitlement.reactivated', apply, applyToChild);
  }

  activate(tx: Transaction, tenant: Tenant, entitlementId: string): Promise<ChangedEntitlement> {
    const apply: Apply = (state, now) => {
      refuseIfExpiredAtOnce(state, now, 'Activating', 'extend expires_at with PATCH first', 'raise usage_limit with PATCH first');
    };
    const applyToChild: Apply = (state, now, parent) => {
      state.expires_at = parent?.expires_at ?? state.expires_at;
      apply(state, now);
    };
    return this.operate(tx, tenant, entitlementId, 'activate', 'entitlement.activated', apply, applyToChild);
  }

  /** A bundle parent's new expires_at is its children's too (they last as long as the parent). */
  update(tx: Transaction, tenant: Tenant, entitlementId: string, changes: UpdateChanges): Promise<ChangedEntitlement> {
    const applyToChild: Apply | undefined =
      changes.expiresAt === undefined
        ? undefined
        : (state, _now, parent) => {
            state.expires_at = parent?.expires_at ?? state.expires_at;
          };
    return this.operate(tx, tenant, entitlementId, 'update', 'entitlement.updated', (state, now) => {
      refuseUnlessFutureExpiry(changes.expiresAt, now, ' (or null for no expiry)');
      if (changes.usageLimit !== undefined && changes.usageLimit !== null && changes.usageLimit < state.usage_count) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `'usage_limit' must be at least usage_count (${state.usage_count}), or null for unlimited`,
          'usage_limit',
        );
      }
      if (changes.expiresAt !== undefined) state.expires_at = changes.expiresAt;
      if (changes.usageLimit !== undefined) state.usage_limit = changes.usageLimit;
      // As jsonb will store it: the answer and the event show what a GET shows.
      if (changes.metadata !== undefined) state.metadata = storedJsonb(changes.metadata);
    }, applyToChild);
  }

  /**
   * Ends the entitlement now (active or suspended → expired, e.g. a canceled subscription), or
   * persists an expiry its time or uses already brought (the sweeper). Publishes
   * entitlement.expired exactly once: an entitlement already stored as expired is returned as it
   * is, with no event. `expires_at` becomes now unless it was earlier.
   */
  expire(tx: Transaction, tenant: Tenant, entitlementId: string): Promise<ChangedEntitlement> {
    const endNow: Apply = (state, now) => {
      if (state.expires_at === null || state.expires_at.getTime() > now.getTime()) state.expires_at = now;
    };
    // A bundle parent's expiry is its children's too, each with its own event (DESIGN §10).
    return this.operate(tx, tenant, entitlementId, 'expire', 'entitlement.expired', endNow, endNow);
  }

  /**
   * Records `quantity` uses and publishes entitlement.updated: POST /usage and every download. The
   * use that reaches the limit succeeds (the entitlement reads as expired from then on); the next
   * is refused.
   */
  recordUse(tx: Transaction, tenant: Tenant, entitlement: string | LockedEntitlement, quantity: number): Promise<ChangedEntitlement> {
    return this.operate(tx, tenant, entitlement, 'use', 'entitlement.updated', (state) => {
      const refusal = useRefusal(state, quantity);
      if (refusal) throw refusal;
      state.usage_count += quantity;
    });
  }

  /** Locks the entitlement for the rest of the transaction and reads its effective status; null when the tenant has none. */
  async lock(tx: Transaction, tenant: Tenant, entitlementId: string): Promise<LockedEntitlement | null> {
    const entitlement = isValidId('ent', entitlementId) ? await this.entitlements.lockById(tx, tenant, entitlementId) : null;
    if (!entitlement) return null;
    const locked: LockedEntitlement = {
      id: entitlement.id,
      customerId: entitlement.customer_id,
      productId: entitlement.product_id,
      status: effectiveStatus(entitlement, await this.time.nowFor(tx, tenant, entitlement.test_clock_id)),
      expiresAt: entitlement.expires_at,
    };
    this.lockedRows.set(locked, entitlement);
    return locked;
  }

  /**
   * The entitlement as a part of a combined read (no lock), with its effective status at its
   * customer's now (`now`, or its test clock's time); null when the tenant has none (or the id is
   * malformed).
   */
  readForUse(tenant: Tenant, entitlementId: string, now: Date): ReadPart<VersionedEntitlement | null> {
    // A malformed id matches no row: the part still runs, so the read stays one statement.
    const part = this.entitlements.versionedPart(tenant, isValidId('ent', entitlementId) ? entitlementId : '', now);
    return {
      ...part,
      parse: (value, manager) => {
        const read = part.parse(value, manager);
        if (!read) return null;
        const { entitlement, version, customerNow } = read;
        const versioned: VersionedEntitlement = {
          id: entitlement.id,
          customerId: entitlement.customer_id,
          productId: entitlement.product_id,
          status: effectiveStatus(entitlement, customerNow),
          expiresAt: entitlement.expires_at,
          version,
          customerNow,
        };
        this.lockedRows.set(versioned, entitlement);
        return versioned;
      },
    };
  }

  /**
   * recordUse(…, 1) as a part of a combined write: the use is taken only if the row is still the
   * version read, refused (`refusal`) otherwise, and entitlement.updated is published as
   * recordUse would. False when this use can't go that way (only the locked path decides it):
   * the stored status lags the effective one, or usage_count is at its column's maximum.
   */
  async useInCombined(db: Reader, tenant: Tenant, read: VersionedEntitlement, combined: CombinedWrite, now: Date, refusal: string): Promise<boolean> {
    const entitlement = this.lockedRows.get(read);
    // What recordUse would refuse (or first record as expired) goes the locked way, which decides it.
    if (!entitlement || read.status !== 'active' || entitlement.status !== 'active' || useRefusal(entitlement, 1) !== null) return false;
    const storeCustomerId = await this.customers.storeIdOf(db, tenant, entitlement.customer_id);
    const saved: EntitlementEntity = { ...entitlement, usage_count: entitlement.usage_count + 1, updated_at: now };
    combined.add(this.entitlements.useOncePart(tenant, entitlement.id, read.version, now, refusal));
    // The event's effective fields at the customer's now, as recordUse publishes them.
    combined.publish('entitlement.updated', tenant, { ...toEntitlementResponse(saved, storeCustomerId, read.customerNow) });
    return true;
  }

  /**
   * Locks the entitlement, applies the operation (the state machine decides) and publishes its
   * event; then, when `applyToChildren` is given, applies the operation to the bundle children in
   * the same transaction, each publishing its own event; a child the operation does not fit (a
   * revoked one on suspend, say) is left as it is. A child alone can't be operated on (uses can:
   * downloads go through the child).
   */
  private async operate(
    tx: Transaction,
    tenant: Tenant,
    target: string | LockedEntitlement,
    operation: EntitlementOperation,
    eventType: EventType,
    apply: Apply,
    applyToChildren?: Apply,
  ): Promise<ChangedEntitlement> {
    // No format check here: internal callers (the sweeper, a canceled subscription) pass ids read from
    // the table, whatever their shape; a malformed id from a request simply finds no row.
    // An entitlement `lock` returned in this transaction is already locked and read: no second round trip.
    const entitlementId = typeof target === 'string' ? target : target.id;
    const entitlement = (typeof target === 'string' ? undefined : this.lockedRows.get(target)) ?? (await this.entitlements.lockById(tx, tenant, entitlementId));
    if (!entitlement) throw new ApiError(ErrorCode.ENTITLEMENT_NOT_FOUND, `No entitlement with id '${entitlementId}'`);
    // Uses go through a child (downloads); expiry comes to a child by its own time or uses (the sweeper).
    if (entitlement.parent_entitlement_id !== null && operation !== 'use' && operation !== 'expire') {
      throw new ApiError(
        ErrorCode.MANAGED_BY_PARENT,
        `Entitlement '${entitlement.id}' was granted by the bundle entitlement '${entitlement.parent_entitlement_id}' and follows it: ${operation} the parent instead`,
      );
    }
    const storeCustomerId = await this.customers.storeIdOf(tx, tenant, entitlement.customer_id);
    // The customer's now: its test clock's frozen time when it is bound to one (DESIGN §14).
    const now = await this.time.nowFor(tx, tenant, entitlement.test_clock_id);
    const saved = (await this.applyOperation(tx, tenant, entitlement, operation, eventType, apply, { storeCustomerId, now, strict: true })) as EntitlementEntity;
    if (applyToChildren) {
      for (const child of await this.entitlements.lockChildren(tx, tenant, saved.id)) {
        const applyToChild: Apply = (state, at) => applyToChildren(state, at, saved);
        await this.applyOperation(tx, tenant, child, operation, eventType, applyToChild, { storeCustomerId, now, strict: false });
      }
    }
    return { entitlement: saved, storeCustomerId, at: now };
  }

  /**
   * Applies the operation to one locked entitlement and publishes `eventType`; returns it as saved.
   * `strict`: a forbidden transition or a refusal throws; otherwise (a bundle child) it returns null
   * and changes nothing.
   */
  private async applyOperation(
    tx: Transaction,
    tenant: Tenant,
    entitlement: EntitlementEntity,
    operation: EntitlementOperation,
    eventType: EventType,
    apply: Apply,
    context: { storeCustomerId: string; now: Date; strict: boolean },
  ): Promise<EntitlementEntity | null> {
    const { storeCustomerId, now, strict } = context;
    const plan = planOperation(entitlement, operation, apply, now, strict);
    if (plan.kind === 'leave') return null;
    const { from } = plan;
    let current = entitlement;
    if (entitlement.status !== from) {
      // Expired by time or usage but not stored yet: record the expiry (and its one event) first,
      // so the operation acts on what every read already reports.
      current = await this.entitlements.saveState(tx, tenant, entitlement.id, { ...stateOf(entitlement), status: from }, this.time.realNow());
      await tx.publish('entitlement.expired', tenant, { ...toEntitlementResponse(current, storeCustomerId, now) });
    }
    // Nothing more to change and no second event: the expiry was recorded before (or just above).
    if (plan.kind === 'already-expired') return current;
    const saved = await this.entitlements.saveState(tx, tenant, entitlement.id, plan.state, this.time.realNow());
    await tx.publish(eventType, tenant, { ...toEntitlementResponse(saved, storeCustomerId, now) });
    return saved;
  }
}
