import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import type { Tenant } from '../../database/tenant';
import { TestClockTime } from '../../test-clock-records/test-clock-time.service';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../clock/clock';
import { CustomerRecordsService } from '../../customer-records/customer-records.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { ApiError } from '../../errors/api-error';
import { ErrorCode } from '../../errors/error-code.enum';
import { isValidId } from '../../ids/id';
import { ProductsService } from '../../products/products.service';
import { effectiveStatus } from '../effective-status';
import type { EntitlementEntity } from '../entitlement.entity';
import { toEntitlementCheckItem } from '../entitlement.mapper';
import { EntitlementsRepository } from '../entitlements.repository';
import { EntitlementTokenResponseDto } from './dto/entitlement-token-response.dto';
import { buildEntitlementTokenClaims } from './entitlement-token-claims';
import { EntitlementSigningKeys } from './entitlement-signing-keys';

/**
 * Signed entitlement tokens (DESIGN §12): an EdDSA JWS a customer's app verifies offline against
 * the JWKS, instead of asking the check on every page view. A revoke reaches a token only when it
 * expires; ENTITLEMENT_TOKEN_TTL bounds that delay.
 */
@Injectable()
export class EntitlementTokensService {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly products: ProductsService,
    private readonly customers: CustomerRecordsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: EntitlementSigningKeys,
    private readonly time: TestClockTime,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** POST /v1/entitlements/{id}/token: only an entitlement active now gets one (403 otherwise). */
  async issue(tenant: Tenant, entitlementId: string): Promise<EntitlementTokenResponseDto> {
    const entitlement = isValidId('ent', entitlementId) ? await this.entitlements.findById(this.unitOfWork.pool, tenant, entitlementId) : null;
    if (!entitlement) throw new ApiError(ErrorCode.ENTITLEMENT_NOT_FOUND, `No entitlement with id '${entitlementId}'`);
    // iat and exp at the customer's now: its test clock's frozen time when it is bound to one (DESIGN §14).
    const now = await this.time.nowFor(this.unitOfWork.pool, tenant, entitlement.test_clock_id);
    const status = effectiveStatus(entitlement, now);
    if (status !== 'active') {
      throw new ApiError(ErrorCode.ENTITLEMENT_NOT_ACTIVE, `Entitlement '${entitlement.id}' is ${status}: only an active entitlement gets a token`);
    }
    return this.sign(tenant, entitlement, now);
  }

  /**
   * The token of a positive check (`include_token=true`), or null if the entitlement stopped being
   * active between the check and this read: the later read wins.
   */
  async issueForCheck(tenant: Tenant, entitlementId: string): Promise<EntitlementTokenResponseDto | null> {
    const entitlement = await this.entitlements.findById(this.unitOfWork.pool, tenant, entitlementId);
    if (!entitlement) return null;
    const now = await this.time.nowFor(this.unitOfWork.pool, tenant, entitlement.test_clock_id);
    if (effectiveStatus(entitlement, now) !== 'active') return null;
    return this.sign(tenant, entitlement, now);
  }

  private async sign(tenant: Tenant, entitlement: EntitlementEntity, now: Date): Promise<EntitlementTokenResponseDto> {
    const db = this.unitOfWork.pool;
    const [product, customer] = await Promise.all([
      this.products.require(db, tenant, entitlement.product_id),
      this.customers.require(db, tenant, entitlement.customer_id),
    ]);
    const claims = buildEntitlementTokenClaims(
      {
        issuer: this.config.publicBaseUrl,
        entitlement: toEntitlementCheckItem(entitlement),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: entitlement.customer_id,
        storeCustomerId: customer.store_customer_id,
        storeProductId: product.store_product_id,
      },
      now,
      this.config.entitlementTokenTtlMilliseconds,
      this.clock.now(),
    );
    const key = await this.keys.signingKey();
    const token = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    return { token, expires_at: new Date(claims.exp * 1000).toISOString() };
  }
}
