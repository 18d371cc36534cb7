import { Injectable } from '@nestjs/common';
import { GuessingRules } from '../auth/guessing-rules';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { StatusResult } from '../envelope/status-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { LicenseActivationEntity } from '../license-records/license-activation.entity';
import type { LicenseKeyEntity } from '../license-records/license-key.entity';
import { toLicenseActivationResponse } from '../license-records/license-key.mapper';
import { LicenseRecordsService } from '../license-records/license-records.service';
import { ProductsService } from '../products/products.service';
import { HeaderSink, RateLimiter } from '../rate-limiting/rate-limiter';
import { ActivateLicenseDto, LicenseDeviceDto, ValidateLicenseDto } from './dto/license-app-request.dto';
import {
  ActivateLicenseResponseDto,
  DeactivateLicenseResponseDto,
  HeartbeatResponseDto,
  ValidateLicenseResponseDto,
  ValidationCode,
} from './dto/license-app-response.dto';
import { LicenseFileSigner } from './license-file';
import { activationNotFound, typedKeyNotFound } from './license-errors';

/** What a license key's entitlement shows at its customer's now. */
interface EntitlementView {
  status: string;
  expiresAt: Date | null;
  now: Date;
}

const CODE_OF_STATUS: Record<string, ValidationCode> = { expired: 'EXPIRED', suspended: 'SUSPENDED', revoked: 'REVOKED', pending: 'PENDING' };

/** validate's code: the entitlement's status first, then whether the fingerprint sent (if any) is activated. */
export function validationCode(status: string, fingerprintSent: boolean, activated: boolean): ValidationCode {
  if (status !== 'active') return CODE_OF_STATUS[status] ?? 'REVOKED';
  return fingerprintSent && !activated ? 'NOT_ACTIVATED' : 'VALID';
}

function tenantOf(license: LicenseKeyEntity): Tenant {
  return { merchantId: license.merchant_id, mode: license.mode };
}

/**
 * The customer's app's routes (DESIGN §18), authenticated by the license key alone: unknown keys
 * are counted per address by GuessingRules (a malformed key, one whose checksum fails, or one
 * remembered as unknown costs no lookup), and a known key's requests count against its own
 * budget (reads for validate, writes for the rest). Activations of one key take the key's row
 * lock, so its limit holds however many devices race.
 */
@Injectable()
export class LicensesService {
  constructor(
    private readonly records: LicenseRecordsService,
    private readonly entitlements: EntitlementsService,
    private readonly products: ProductsService,
    private readonly guessing: GuessingRules,
    private readonly rateLimiter: RateLimiter,
    private readonly unitOfWork: UnitOfWork,
    private readonly licenseFiles: LicenseFileSigner,
  ) {}

  async validate(clientAddress: string, body: ValidateLicenseDto, setHeader: HeaderSink): Promise<ValidateLicenseResponseDto> {
    const license = await this.authenticate(clientAddress, body.key, 'GET', setHeader);
    const tenant = tenantOf(license);
    const db = this.unitOfWork.pool;
    const [view, product, counts, activation] = await Promise.all([
      this.viewOf(db, tenant, license),
      this.products.require(db, tenant, license.product_id),
      this.records.activationCounts(db, tenant, [license.id]),
      body.fingerprint === undefined ? Promise.resolve(null) : this.records.findActivation(db, tenant, license.id, body.fingerprint),
    ]);
    const code = validationCode(view.status, body.fingerprint !== undefined, activation !== null);
    return {
      valid: code === 'VALID',
      code,
      license: {
        id: license.id,
        product_id: license.product_id,
        store_product_id: product.store_product_id,
        status: view.status,
        expires_at: view.expiresAt?.toISOString() ?? null,
        activation_limit: license.activation_limit,
        activations_count: counts.get(license.id) ?? 0,
      },
      activation: activation ? toLicenseActivationResponse(activation) : null,
    };
  }

  /**
   * 201 with a new activation, or 200 with the fingerprint's existing one (seen now); either way a
   * fresh license file. Under the key's row lock: the count and the insert can't interleave with
   * another device's, so exactly activation_limit devices get in.
   */
  async activate(clientAddress: string, body: ActivateLicenseDto, setHeader: HeaderSink): Promise<StatusResult<ActivateLicenseResponseDto>> {
    const found = await this.authenticate(clientAddress, body.key, 'POST', setHeader);
    const tenant = tenantOf(found);
    const { license, activation, created, view } = await this.unitOfWork.run({ tenant, idempotency: null }, async (tx) => {
      const locked = await this.lockKey(tx, tenant, found);
      const current = await this.requireActive(tx, tenant, locked);
      const existing = await this.records.findActivation(tx, tenant, locked.id, body.fingerprint);
      if (existing) {
        const seen = await this.records.touchActivation(tx, tenant, existing.id, current.now);
        return { license: locked, activation: seen ?? existing, created: false, view: current };
      }
      const count = (await this.records.activationCounts(tx, tenant, [locked.id])).get(locked.id) ?? 0;
      if (locked.activation_limit !== null && count >= locked.activation_limit) {
        throw new ApiError(
          ErrorCode.ACTIVATION_LIMIT_REACHED,
          `This license key is active on ${count} of ${locked.activation_limit} devices: deactivate one before activating another`,
          'fingerprint',
        );
      }
      const inserted = await this.records.activate(tx, tenant, {
        license_key_id: locked.id,
        fingerprint: body.fingerprint,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        test_clock_id: locked.test_clock_id,
        created_at: current.now,
        last_seen_at: current.now,
      });
      return { license: locked, activation: inserted, created: true, view: current };
    });
    const product = await this.products.require(this.unitOfWork.pool, tenant, license.product_id);
    const licenseFile = await this.licenseFiles.sign(tenant, license, activation, view, product.store_product_id);
    return new StatusResult(created ? 201 : 200, { activation: toLicenseActivationResponse(activation), license_file: licenseFile });
  }

  /** Releases the fingerprint's seat, whatever the entitlement's status (a device may always leave). */
  async deactivate(clientAddress: string, body: LicenseDeviceDto, setHeader: HeaderSink): Promise<DeactivateLicenseResponseDto> {
    const found = await this.authenticate(clientAddress, body.key, 'POST', setHeader);
    const tenant = tenantOf(found);
    return this.unitOfWork.run({ tenant, idempotency: null }, async (tx) => {
      const locked = await this.lockKey(tx, tenant, found);
      const activation = await this.requireActivation(tx, tenant, locked, body.fingerprint);
      await this.records.deactivate(tx, tenant, activation);
      return { activation_id: activation.id, deactivated: true };
    });
  }

  /** The device is still there: last_seen_at moves to now, so a floating seat is kept. */
  async heartbeat(clientAddress: string, body: LicenseDeviceDto, setHeader: HeaderSink): Promise<HeartbeatResponseDto> {
    const found = await this.authenticate(clientAddress, body.key, 'POST', setHeader);
    const tenant = tenantOf(found);
    return this.unitOfWork.run({ tenant, idempotency: null }, async (tx) => {
      const current = await this.requireActive(tx, tenant, found);
      const activation = await this.requireActivation(tx, tenant, found, body.fingerprint);
      const seen = await this.records.touchActivation(tx, tenant, activation.id, current.now);
      if (!seen) throw activationNotFound(`with fingerprint '${body.fingerprint}'`);
      return { activation: toLicenseActivationResponse(seen) };
    });
  }

  private async authenticate(clientAddress: string, typedKey: string, budget: 'GET' | 'POST', setHeader: HeaderSink): Promise<LicenseKeyEntity> {
    const license = await this.guessing.secret(clientAddress, this.records.credential(typedKey), typedKeyNotFound);
    await this.rateLimiter.count({ credentialId: `license:${license.id}` }, budget, setHeader);
    return license;
  }

  private async lockKey(tx: Transaction, tenant: Tenant, license: LicenseKeyEntity): Promise<LicenseKeyEntity> {
    const locked = await this.records.lockById(tx, tenant, license.id);
    // Gone since the lookup: its entitlement's customer (a test clock's) was deleted.
    if (!locked) throw typedKeyNotFound();
    return locked;
  }

  private async viewOf(db: Reader, tenant: Tenant, license: LicenseKeyEntity): Promise<EntitlementView> {
    const view = (await this.entitlements.licenseViewsOf(db, tenant, [license.entitlement_id])).get(license.entitlement_id);
    if (!view) throw typedKeyNotFound();
    return view;
  }

  private async requireActive(tx: Transaction, tenant: Tenant, license: LicenseKeyEntity): Promise<EntitlementView> {
    const view = await this.viewOf(tx, tenant, license);
    if (view.status !== 'active') {
      throw new ApiError(ErrorCode.ENTITLEMENT_NOT_ACTIVE, `This license's entitlement is ${view.status}: only an active license can be activated or kept alive`);
    }
    return view;
  }

  private async requireActivation(tx: Transaction, tenant: Tenant, license: LicenseKeyEntity, fingerprint: string): Promise<LicenseActivationEntity> {
    const activation = await this.records.findActivation(tx, tenant, license.id, fingerprint);
    if (!activation) throw activationNotFound(`with fingerprint '${fingerprint}'`);
    return activation;
  }
}
