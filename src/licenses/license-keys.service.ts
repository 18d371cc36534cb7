import { Injectable } from '@nestjs/common';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { PageResult } from '../envelope/page-result';
import { isValidId } from '../ids/id';
import { LicenseActivationResponseDto, LicenseKeyResponseDto } from '../license-records/dto/license-key-response.dto';
import type { LicenseKeyEntity } from '../license-records/license-key.entity';
import { toLicenseActivationResponse, toLicenseKeyResponse } from '../license-records/license-key.mapper';
import { LicenseRecordsService } from '../license-records/license-records.service';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { DeletedActivationResponseDto } from './dto/license-app-response.dto';
import { ListLicenseKeysQueryDto, UpdateLicenseKeyDto } from './dto/license-key-request.dto';
import { activationNotFound, licenseKeyNotFound } from './license-errors';

const EMPTY_PAGE = { rows: [], total: 0 };

/**
 * The merchant's license key routes (DESIGN §18, scopes licenses:read / licenses:write): keys
 * with their entitlement's status, one customer's own activation limit, and the devices.
 */
@Injectable()
export class LicenseKeysService {
  constructor(
    private readonly records: LicenseRecordsService,
    private readonly entitlements: EntitlementsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(tenant: Tenant, query: ListLicenseKeysQueryDto): Promise<PageResult<LicenseKeyResponseDto>> {
    const page = toPageRequest(query);
    const db = this.unitOfWork.pool;
    // A malformed id names nothing: an empty page, without a query.
    const malformed =
      (query.entitlement_id !== undefined && !isValidId('ent', query.entitlement_id)) ||
      (query.customer_id !== undefined && !isValidId('cus', query.customer_id)) ||
      (query.product_id !== undefined && !isValidId('prod', query.product_id));
    const { rows, total } = malformed
      ? EMPTY_PAGE
      : await this.records.list(db, tenant, { entitlementId: query.entitlement_id, customerId: query.customer_id, productId: query.product_id }, page);
    const respond = await this.responder(db, tenant, rows);
    return toPageResult(rows, page, (row) => row.created_at, respond, total);
  }

  async get(tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyResponseDto> {
    const db = this.unitOfWork.pool;
    const license = await this.require(db, tenant, licenseKeyId);
    return (await this.responder(db, tenant, [license]))(license);
  }

  /** One customer's own limit; lowering it releases no device (new activations wait until enough leave). */
  update(operation: Operation, licenseKeyId: string, body: UpdateLicenseKeyDto): Promise<LicenseKeyResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const locked = await this.lock(tx, tenant, licenseKeyId);
      const license = body.activation_limit === undefined ? locked : await this.records.updateActivationLimit(tx, tenant, locked.id, body.activation_limit);
      return (await this.responder(tx, tenant, [license]))(license);
    });
  }

  async listActivations(tenant: Tenant, licenseKeyId: string, query: PaginationQueryDto): Promise<PageResult<LicenseActivationResponseDto>> {
    const db = this.unitOfWork.pool;
    const license = await this.require(db, tenant, licenseKeyId);
    const page = toPageRequest(query);
    const { rows, total } = await this.records.listActivations(db, tenant, license.id, page);
    return toPageResult(rows, page, (row) => row.created_at, toLicenseActivationResponse, total);
  }

  /** Frees a device's seat (publishes license.deactivated); its app finds out at its next validate or heartbeat. */
  deleteActivation(operation: Operation, licenseKeyId: string, activationId: string): Promise<DeletedActivationResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const license = await this.lock(tx, tenant, licenseKeyId);
      const activation = isValidId('act', activationId) ? await this.records.findActivationById(tx, tenant, license.id, activationId) : null;
      if (!activation) throw activationNotFound(`with id '${activationId}'`);
      await this.records.deactivate(tx, tenant, activation);
      return { id: activation.id, deleted: true };
    });
  }

  /** The response of each of these keys: statuses and counts read once for all. */
  private async responder(db: Reader, tenant: Tenant, licenses: LicenseKeyEntity[]): Promise<(license: LicenseKeyEntity) => LicenseKeyResponseDto> {
    const ids = licenses.map((license) => license.id);
    const [views, counts] = await Promise.all([
      this.entitlements.licenseViewsOf(db, tenant, licenses.map((license) => license.entitlement_id)),
      this.records.activationCounts(db, tenant, ids),
    ]);
    return (license) =>
      toLicenseKeyResponse(license, this.records.displayedKey(license), views.get(license.entitlement_id)?.status ?? 'revoked', counts.get(license.id) ?? 0);
  }

  private async require(db: Reader, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity> {
    const license = isValidId('lic', licenseKeyId) ? await this.records.findById(db, tenant, licenseKeyId) : null;
    if (!license) throw licenseKeyNotFound(licenseKeyId);
    return license;
  }

  private async lock(tx: Transaction, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity> {
    const license = isValidId('lic', licenseKeyId) ? await this.records.lockById(tx, tenant, licenseKeyId) : null;
    if (!license) throw licenseKeyNotFound(licenseKeyId);
    return license;
  }
}
