import { Injectable } from '@nestjs/common';
import type { SecretCredential } from '../auth/guessing-rules';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { generateId } from '../ids/id';
import { PageRequest } from '../pagination/page';
import type { LicenseActivationEntity } from './license-activation.entity';
import { LicenseActivationsRepository, NewLicenseActivation } from './license-activations.repository';
import { LicenseKeyCipher } from './license-key-cipher';
import type { LicenseKeyEntity } from './license-key.entity';
import { toLicenseActivationResponse, toLicenseKeyResponse } from './license-key.mapper';
import { LicenseKeyFilters, LicenseKeysRepository } from './license-keys.repository';
import type { LicenseStatus } from './license-status';
import { UnknownLicenseKeys } from './unknown-license-keys';

/** What a product that issues keys says about them (the products module's LicenseConfig, structurally). */
export interface LicenseTerms {
  activation_limit: number | null;
  activation_ttl_seconds: number | null;
}

/** A just granted entitlement, as far as its key needs it. */
export interface GrantedForLicense {
  id: string;
  customer_id: string;
  product_id: string;
  test_clock_id: string | null;
  status: LicenseStatus;
}

/**
 * license_keys and license_activations (DESIGN §18): issuing keys in a grant's transaction (the
 * entitlements module calls `issue`), reading a typed key without the database when it can't be
 * one, and the rows the license routes (src/licenses/) read and change.
 */
@Injectable()
export class LicenseRecordsService {
  constructor(
    private readonly keys: LicenseKeysRepository,
    private readonly activations: LicenseActivationsRepository,
    private readonly cipher: LicenseKeyCipher,
    private readonly unknown: UnknownLicenseKeys,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * One key for each of these entitlements whose product issues keys (`termsOf` their product:
   * null when it doesn't), in one insert, each publishing license_key.created with the key, in
   * the grant's transaction.
   */
  async issue(tx: Transaction, tenant: Tenant, granted: readonly GrantedForLicense[], termsOf: (productId: string) => LicenseTerms | null | undefined): Promise<void> {
    const issued = granted.flatMap((entitlement) => {
      const terms = termsOf(entitlement.product_id);
      return terms ? [{ entitlement, terms, key: this.cipher.issue() }] : [];
    });
    if (issued.length === 0) return;
    const rows = await this.keys.insertMany(
      tx,
      tenant,
      issued.map(({ entitlement, terms, key }) => ({
        id: generateId('lic'),
        entitlement_id: entitlement.id,
        customer_id: entitlement.customer_id,
        product_id: entitlement.product_id,
        test_clock_id: entitlement.test_clock_id,
        key_hash: key.hash,
        key_encrypted: key.encrypted,
        activation_limit: terms.activation_limit,
        activation_ttl_seconds: terms.activation_ttl_seconds,
      })),
    );
    for (const { key } of issued) this.unknown.forget(key.hash);
    await tx.publishMany(
      'license_key.created',
      tenant,
      rows.map((row, index) => ({ ...toLicenseKeyResponse(row, issued[index].key.displayed, issued[index].entitlement.status, 0) })),
    );
  }

  /**
   * A key typed into an app, as GuessingRules reads a credential: known not to be one (malformed,
   * its checksum fails, or remembered as unknown) with no lookup, else looked up by its hash once.
   */
  credential(typedKey: string): SecretCredential<LicenseKeyEntity> {
    const { hash, plausible } = this.cipher.read(typedKey);
    if (hash === null || !plausible || this.unknown.has(hash)) return { cached: null, plausible: false, lookUp: () => Promise.resolve(null) };
    return {
      cached: undefined,
      plausible: true,
      lookUp: async () => {
        const found = await this.keys.findByHash(this.unitOfWork.pool, hash);
        if (!found) this.unknown.remember(hash);
        return found;
      },
    };
  }

  /** The key as the customer types it. */
  displayedKey(license: LicenseKeyEntity): string {
    return this.cipher.decrypt(license.key_encrypted);
  }

  findById(db: Reader, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity | null> {
    return this.keys.findById(db, tenant, licenseKeyId);
  }

  lockById(tx: Transaction, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity | null> {
    return this.keys.lockById(tx, tenant, licenseKeyId);
  }

  findByEntitlementIds(db: Reader, tenant: Tenant, entitlementIds: string[]): Promise<LicenseKeyEntity[]> {
    return this.keys.findByEntitlementIds(db, tenant, entitlementIds);
  }

  list(db: Reader, tenant: Tenant, filters: LicenseKeyFilters, page: PageRequest): Promise<{ rows: LicenseKeyEntity[]; total: number }> {
    return this.keys.list(db, tenant, filters, page);
  }

  updateActivationLimit(tx: Transaction, tenant: Tenant, licenseKeyId: string, activationLimit: number | null): Promise<LicenseKeyEntity> {
    return this.keys.updateActivationLimit(tx, tenant, licenseKeyId, activationLimit);
  }

  activationCounts(db: Reader, tenant: Tenant, licenseKeyIds: string[]): Promise<Map<string, number>> {
    return this.activations.countsByKey(db, tenant, licenseKeyIds);
  }

  findActivation(db: Reader, tenant: Tenant, licenseKeyId: string, fingerprint: string): Promise<LicenseActivationEntity | null> {
    return this.activations.findByFingerprint(db, tenant, licenseKeyId, fingerprint);
  }

  findActivationById(db: Reader, tenant: Tenant, licenseKeyId: string, activationId: string): Promise<LicenseActivationEntity | null> {
    return this.activations.findById(db, tenant, licenseKeyId, activationId);
  }

  listActivations(db: Reader, tenant: Tenant, licenseKeyId: string, page: PageRequest): Promise<{ rows: LicenseActivationEntity[]; total: number }> {
    return this.activations.listForKey(db, tenant, licenseKeyId, page);
  }

  /** A new activation of the key (locked by the caller), publishing license.activated. */
  async activate(tx: Transaction, tenant: Tenant, activation: Omit<NewLicenseActivation, 'id'>): Promise<LicenseActivationEntity> {
    const inserted = await this.activations.insert(tx, tenant, { ...activation, id: generateId('act') });
    await tx.publish('license.activated', tenant, { ...toLicenseActivationResponse(inserted) });
    return inserted;
  }

  touchActivation(tx: Transaction, tenant: Tenant, activationId: string, seenAt: Date): Promise<LicenseActivationEntity | null> {
    return this.activations.touch(tx, tenant, activationId, seenAt);
  }

  /** Deletes the activation, publishing license.deactivated once (a concurrent deactivation publishes nothing more). */
  async deactivate(tx: Transaction, tenant: Tenant, activation: LicenseActivationEntity): Promise<void> {
    if (await this.activations.delete(tx, tenant, activation.id)) await tx.publish('license.deactivated', tenant, { ...toLicenseActivationResponse(activation) });
  }
}
