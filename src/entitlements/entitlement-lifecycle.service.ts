import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { Clock } from '../clock/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { EventType } from '../events/domain-event';
import { isValidId } from '../ids/id';
import { EntitlementReasonDto, ReactivateEntitlementDto, RecordUsageDto } from './dto/entitlement-operation.dto';
import { EntitlementResponseDto } from './dto/entitlement-response.dto';
import { UpdateEntitlementDto } from './dto/update-entitlement.dto';
import { effectiveStatus } from './effective-status';
import { EntitlementOperation, transition } from './entitlement-state-machine';
import { EntitlementWithCustomer, toEntitlementResponse } from './entitlement.mapper';
import { EntitlementsRepository } from './entitlements.repository';

/** Applies an allowed operation's other effects; may refuse with an ApiError (the transaction rolls back). */
type Apply = (entitlement: EntitlementWithCustomer, now: Date) => void;

const parseNullableTime = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/**
 * Every lifecycle operation: lock the row, read its effective status, ask the state machine, apply,
 * publish one event, all in one transaction. Of N concurrent operations on one entitlement each
 * sees the result of the previous, so only valid ones succeed.
 */
@Injectable()
export class EntitlementLifecycleService {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  suspend(tenant: Tenant, entitlementId: string, body: EntitlementReasonDto): Promise<EntitlementResponseDto> {
    return this.operate(tenant, entitlementId, 'suspend', 'entitlement.suspended', (entitlement, now) => {
      entitlement.suspended_at = now;
      entitlement.suspension_reason = body.reason ?? null;
    });
  }

  revoke(tenant: Tenant, entitlementId: string, body: EntitlementReasonDto): Promise<EntitlementResponseDto> {
    return this.operate(tenant, entitlementId, 'revoke', 'entitlement.revoked', (entitlement, now) => {
      entitlement.revoked_at = now;
      entitlement.revocation_reason = body.reason ?? null;
    });
  }

  reactivate(tenant: Tenant, entitlementId: string, body: ReactivateEntitlementDto): Promise<EntitlementResponseDto> {
    return this.operate(tenant, entitlementId, 'reactivate', 'entitlement.reactivated', (entitlement, now) => {
      const expiresAt = parseNullableTime(body.expires_at);
      if (expiresAt !== undefined) entitlement.expires_at = expiresAt;
      if (body.usage_limit !== undefined) entitlement.usage_limit = body.usage_limit;
      this.refuseIfExpiredAtOnce(entitlement, now, 'Reactivating', 'pass a later expires_at (or null) in the reactivate body', 'pass a higher usage_limit (or null) in the reactivate body');
      entitlement.suspended_at = null;
      entitlement.suspension_reason = null;
    });
  }

  activate(tenant: Tenant, entitlementId: string): Promise<EntitlementResponseDto> {
    return this.operate(tenant, entitlementId, 'activate', 'entitlement.activated', (entitlement, now) => {
      this.refuseIfExpiredAtOnce(entitlement, now, 'Activating', 'extend expires_at with PATCH first', 'raise usage_limit with PATCH first');
    });
  }

  update(tenant: Tenant, entitlementId: string, body: UpdateEntitlementDto): Promise<EntitlementResponseDto> {
    return this.operate(tenant, entitlementId, 'update', 'entitlement.updated', (entitlement, now) => {
      const expiresAt = parseNullableTime(body.expires_at);
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw new ApiError(ErrorCode.INVALID_PARAMETER, `'expires_at' must be in the future (or null for no expiry)`, 'expires_at');
      }
      if (body.usage_limit !== undefined && body.usage_limit !== null && body.usage_limit < entitlement.usage_count) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `'usage_limit' must be at least usage_count (${entitlement.usage_count}), or null for unlimited`,
          'usage_limit',
        );
      }
      if (expiresAt !== undefined) entitlement.expires_at = expiresAt;
      if (body.usage_limit !== undefined) entitlement.usage_limit = body.usage_limit;
      if (body.metadata !== undefined) entitlement.metadata = body.metadata;
    });
  }

  /** Records uses (non-file products). The use that reaches the limit succeeds; the next is refused. */
  recordUsage(tenant: Tenant, entitlementId: string, body: RecordUsageDto): Promise<EntitlementResponseDto> {
    const quantity = body.quantity ?? 1;
    return this.operate(tenant, entitlementId, 'use', 'entitlement.updated', (entitlement) => {
      if (entitlement.usage_limit !== null && entitlement.usage_count + quantity > entitlement.usage_limit) {
        const left = entitlement.usage_limit - entitlement.usage_count;
        throw new ApiError(
          ErrorCode.INVALID_STATUS_TRANSITION,
          `Cannot use the entitlement ${quantity} more time(s): usage_limit is ${entitlement.usage_limit} and ${left} use(s) are left`,
          'quantity',
        );
      }
      entitlement.usage_count += quantity;
    });
  }

  private async operate(
    tenant: Tenant,
    entitlementId: string,
    operation: EntitlementOperation,
    eventType: EventType,
    apply: Apply,
  ): Promise<EntitlementResponseDto> {
    const notFound = () => new ApiError(ErrorCode.ENTITLEMENT_NOT_FOUND, `No entitlement with id '${entitlementId}'`);
    if (!isValidId('ent', entitlementId)) throw notFound();
    return this.unitOfWork.run(async ({ manager, publish }) => {
      const entitlement = await this.entitlements.lockById(manager, tenant, entitlementId);
      if (!entitlement) throw notFound();
      const now = this.clock.now();
      const from = effectiveStatus(entitlement, now);
      const to = transition(operation, from);
      if (entitlement.status !== from) {
        // Expired by time or usage but not swept yet: record the expiry (and its one event) first,
        // so the operation acts on what every read already reports.
        entitlement.status = from;
        await this.entitlements.save(manager, entitlement);
        await publish('entitlement.expired', tenant, { ...toEntitlementResponse(entitlement, now) });
      }
      apply(entitlement, now);
      entitlement.status = to;
      await this.entitlements.save(manager, entitlement);
      const response = toEntitlementResponse(entitlement, now);
      await publish(eventType, tenant, { ...response });
      return response;
    });
  }

  /** Reactivate/activate must not produce an entitlement that is expired the moment it is active. */
  private refuseIfExpiredAtOnce(entitlement: EntitlementWithCustomer, now: Date, doing: string, extendTime: string, extendUsage: string): void {
    if (entitlement.expires_at !== null && entitlement.expires_at.getTime() <= now.getTime()) {
      throw new ApiError(
        ErrorCode.INVALID_STATUS_TRANSITION,
        `${doing} would leave the entitlement expired at once: expires_at (${entitlement.expires_at.toISOString()}) has passed; ${extendTime}`,
        'expires_at',
      );
    }
    if (entitlement.usage_limit !== null && entitlement.usage_count >= entitlement.usage_limit) {
      throw new ApiError(
        ErrorCode.INVALID_STATUS_TRANSITION,
        `${doing} would leave the entitlement expired at once: usage_count (${entitlement.usage_count}) has reached usage_limit (${entitlement.usage_limit}); ${extendUsage}`,
        'usage_limit',
      );
    }
  }
}
