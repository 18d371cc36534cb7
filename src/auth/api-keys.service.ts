import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyEntity } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKeysRepository } from './api-keys.repository';
import type { AuthContext } from './auth-context';
import { MerchantsService } from './merchants.service';
import { ALL_SCOPES_WILDCARD, isScope, SCOPES } from './scopes';
import type { ApiMode } from './tenant';

export interface ApiKeyView {
  id: string;
  prefix: string;
  mode: ApiMode;
  scopes: string[];
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKeyView extends ApiKeyView {
  /** The secret; returned only when the key is created. */
  key: string;
}

/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_WRITE_INTERVAL_MILLISECONDS = 60_000;

function toApiKeyView(key: ApiKeyEntity): ApiKeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    mode: key.mode,
    scopes: key.scopes,
    name: key.name,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
  };
}

@Injectable()
export class ApiKeysService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ApiKeysService.name);
  /** null caches "no such active key" too, so guessing doesn't reach the database each time. */
  private readonly cache = new ApiKeyCache<AuthContext | null>();
  private readonly lastUsedWrites = new Map<string, number>();
  /** last_used_at writes still in flight; shutdown waits for them so none runs on a closed pool. */
  private readonly pendingWrites = new Set<Promise<void>>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly merchants: MerchantsService,
  ) {}

  async create(merchantId: string, input: { mode: ApiMode; scopes: string[]; name?: string | null }): Promise<CreatedApiKeyView> {
    await this.merchants.require(merchantId);
    const scopes = this.normaliseScopes(input.scopes);
    const key = generateApiKey(input.mode);
    const entity = await this.keys.create(merchantId, {
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      mode: input.mode,
      scopes,
      name: input.name ?? null,
    });
    return { ...toApiKeyView(entity), key };
  }

  async list(merchantId: string): Promise<ApiKeyView[]> {
    await this.merchants.require(merchantId);
    return (await this.keys.listForMerchant(merchantId)).map(toApiKeyView);
  }

  async revoke(keyId: string): Promise<ApiKeyView> {
    const revoked = isValidId('key', keyId) ? await this.keys.revoke(keyId) : null;
    if (!revoked) throw new ApiError(ErrorCode.API_KEY_NOT_FOUND, `No API key with id '${keyId}'`);
    // This instance forgets it now; others within the cache TTL.
    this.cache.deleteWhere((context) => context?.apiKeyId === keyId);
    return toApiKeyView(revoked);
  }

  /** The key's auth context, or null for a malformed, unknown or revoked key. */
  async authenticate(rawKey: string): Promise<AuthContext | null> {
    if (!isWellFormedApiKey(rawKey)) return null;
    const hash = hashApiKey(rawKey);
    let context = this.cache.get(hash);
    if (context === undefined) {
      const entity = await this.keys.findActiveByHash(hash);
      context = entity
        ? {
            apiKeyId: entity.id,
            merchantId: entity.merchant_id,
            mode: entity.mode,
            scopes: new Set(entity.scopes),
            tenant: { merchantId: entity.merchant_id, mode: entity.mode },
          }
        : null;
      this.cache.set(hash, context);
    }
    if (context) this.recordUse(context.apiKeyId);
    return context;
  }

  private recordUse(keyId: string): void {
    const now = Date.now();
    const lastWrite = this.lastUsedWrites.get(keyId) ?? 0;
    if (now - lastWrite < LAST_USED_WRITE_INTERVAL_MILLISECONDS) return;
    this.lastUsedWrites.set(keyId, now);
    const write = this.keys
      .touchLastUsed(keyId, new Date(now))
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Could not record last_used_at');
      })
      .finally(() => this.pendingWrites.delete(write));
    this.pendingWrites.add(write);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pendingWrites]);
  }

  private normaliseScopes(scopes: string[]): string[] {
    if (scopes.length === 0) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, 'scopes must list at least one scope, or ["*"]', 'scopes');
    }
    if (scopes.includes(ALL_SCOPES_WILDCARD)) return [ALL_SCOPES_WILDCARD];
    const unknown = scopes.find((scope) => !isScope(scope));
    if (unknown !== undefined) {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Unknown scope '${unknown}'; known scopes: ${SCOPES.join(', ')} or *`,
        'scopes',
      );
    }
    return [...new Set(scopes)];
  }
}
