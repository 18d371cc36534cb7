import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { ApiKeyEntity } from './api-key.entity';
import type { ApiMode } from '../database/tenant';

export interface NewApiKey {
  keyHash: string;
  prefix: string;
  mode: ApiMode;
  scopes: string[];
  name: string | null;
}

/**
 * API keys belong to a merchant; every method takes the merchant id except the by-hash lookup auth
 * needs. Reads take a Reader, writes a Transaction (DESIGN §1).
 */
@Injectable()
export class ApiKeysRepository {
  async create(tx: Transaction, merchantId: string, key: NewApiKey): Promise<ApiKeyEntity> {
    const entity = tx.manager.create(ApiKeyEntity, {
      id: generateId('key'),
      merchant_id: merchantId,
      key_hash: key.keyHash,
      prefix: key.prefix,
      mode: key.mode,
      scopes: key.scopes,
      name: key.name,
      checksummed: true,
    });
    return tx.manager.save(ApiKeyEntity, entity);
  }

  /** Authentication: the key's hash is its only handle before the tenant is known. */
  findActiveByHash(db: Reader, keyHash: string): Promise<ApiKeyEntity | null> {
    return db.manager.findOne(ApiKeyEntity, { where: { key_hash: keyHash, revoked_at: IsNull() } });
  }

  /** Hashes of live keys made without a checksum (LegacyCredentialFilter); a partial index keeps this small. */
  async listLegacyHashes(db: Reader): Promise<string[]> {
    const rows = await db.manager.find(ApiKeyEntity, { select: { key_hash: true }, where: { checksummed: false, revoked_at: IsNull() } });
    return rows.map((row) => row.key_hash);
  }

  listForMerchant(db: Reader, merchantId: string): Promise<ApiKeyEntity[]> {
    return db.manager.find(ApiKeyEntity, {
      where: { merchant_id: merchantId },
      order: { created_at: 'DESC', id: 'DESC' },
    });
  }

  findById(db: Reader, keyId: string): Promise<ApiKeyEntity | null> {
    return db.manager.findOne(ApiKeyEntity, { where: { id: keyId } });
  }

  /** Sets revoked_at once; a second revoke keeps the first time. */
  async revoke(tx: Transaction, keyId: string): Promise<ApiKeyEntity | null> {
    await tx.manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revoked_at: () => 'now()' })
      .where('id = :keyId AND revoked_at IS NULL', { keyId })
      .execute();
    return this.findById(tx, keyId);
  }

  async touchLastUsed(tx: Transaction, keyId: string, at: Date): Promise<void> {
    await tx.manager.update(ApiKeyEntity, { id: keyId }, { last_used_at: at });
  }
}
