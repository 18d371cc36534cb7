import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
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

/** API keys belong to a merchant; every method takes the merchant id except the by-hash lookup auth needs. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(merchantId: string, key: NewApiKey): Promise<ApiKeyEntity> {
    const manager = this.dataSource.manager;
    const entity = manager.create(ApiKeyEntity, {
      id: generateId('key'),
      merchant_id: merchantId,
      key_hash: key.keyHash,
      prefix: key.prefix,
      mode: key.mode,
      scopes: key.scopes,
      name: key.name,
      checksummed: true,
    });
    return manager.save(ApiKeyEntity, entity);
  }

  /** Authentication: the key's hash is its only handle before the tenant is known. */
  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.manager.findOne(ApiKeyEntity, { where: { key_hash: keyHash, revoked_at: IsNull() } });
  }

  /** Hashes of live keys made without a checksum (LegacyCredentialFilter); a partial index keeps this small. */
  async listLegacyHashes(): Promise<string[]> {
    const rows = await this.dataSource.manager.find(ApiKeyEntity, { select: { key_hash: true }, where: { checksummed: false, revoked_at: IsNull() } });
    return rows.map((row) => row.key_hash);
  }

  listForMerchant(merchantId: string): Promise<ApiKeyEntity[]> {
    return this.dataSource.manager.find(ApiKeyEntity, {
      where: { merchant_id: merchantId },
      order: { created_at: 'DESC', id: 'DESC' },
    });
  }

  findById(keyId: string): Promise<ApiKeyEntity | null> {
    return this.dataSource.manager.findOne(ApiKeyEntity, { where: { id: keyId } });
  }

  /** Sets revoked_at once; a second revoke keeps the first time. */
  async revoke(keyId: string): Promise<ApiKeyEntity | null> {
    await this.dataSource.manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revoked_at: () => 'now()' })
      .where('id = :keyId AND revoked_at IS NULL', { keyId })
      .execute();
    return this.findById(keyId);
  }

  async touchLastUsed(keyId: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(ApiKeyEntity, { id: keyId }, { last_used_at: at });
  }
}
