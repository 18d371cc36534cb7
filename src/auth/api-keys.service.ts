import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { ApiKeyCache, UNKNOWN_API_KEY_TTL_MILLISECONDS } from './api-key-cache';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from './dto/admin-response.dto';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { ApiKeysRepository } from './api-keys.repository';
import type { AuthContext } from './auth-context';
import { CredentialChecksum } from './credential-checksum';
import type { SecretCredential } from './guessing-rules';
import { LegacyCredentialFilter } from './legacy-credential-filter';
import { inTenant, RequestAudit } from './request-audit';
import { MerchantsService } from './merchants.service';
import { ALL_SCOPES_WILDCARD, isScope, SCOPES } from './scopes';
import type { ApiMode } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';

/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_WRITE_INTERVAL_MILLISECONDS = 60_000;

function toApiKeyResponse(key: ApiKeyEntity): ApiKeyResponseDto {
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
export class ApiKeysService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new ApiKeyCache<AuthContext>();
  /**
   * Keys found in no row, remembered apart (so a spray of guesses can't evict the valid keys)
   * and longer, so a repeated guess doesn't reach the database.
   */
  private readonly unknownKeys = new ApiKeyCache<true>(UNKNOWN_API_KEY_TTL_MILLISECONDS);
  /** Keys made without a checksum (before it existed, or by an older version in a rolling upgrade). */
  private readonly legacyKeys: LegacyCredentialFilter;
  /** Lookups in flight by hash: concurrent requests with one key share one query. */
  private readonly lookups = new Map<string, Promise<AuthContext | null>>();
  private readonly lastUsedWrites = new Map<string, number>();
  /** last_used_at writes still in flight; shutdown waits for them so none runs on a closed pool. */
  private readonly pendingWrites = new Set<Promise<void>>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly merchants: MerchantsService,
    private readonly checksum: CredentialChecksum,
    private readonly unitOfWork: UnitOfWork,
  ) {
    this.legacyKeys = new LegacyCredentialFilter('legacy API key', () => this.keys.listLegacyHashes(this.unitOfWork.pool));
  }

  async onModuleInit(): Promise<void> {
    await this.legacyKeys.start();
  }

  /** `audit`: who asked (a dashboard user, the admin token, the CLI); the key's creation is recorded with it. */
  async create(merchantId: string, input: { mode: ApiMode; scopes: string[]; name?: string | null }, audit: RequestAudit): Promise<CreatedApiKeyResponseDto> {
    await this.merchants.require(merchantId);
    const scopes = this.normaliseScopes(input.scopes);
    const key = generateApiKey(input.mode, this.checksum);
    const entity = await this.unitOfWork.runRecorded(inTenant(audit, merchantId, input.mode), (tx) =>
      this.keys.create(tx, merchantId, {
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      mode: input.mode,
      scopes,
      name: input.name ?? null,
      }),
    );
    return { ...toApiKeyResponse(entity), key };
  }

  async list(merchantId: string): Promise<ApiKeyResponseDto[]> {
    await this.merchants.require(merchantId);
    return (await this.keys.listForMerchant(this.unitOfWork.pool, merchantId)).map(toApiKeyResponse);
  }

  async revoke(keyId: string, audit: RequestAudit): Promise<ApiKeyResponseDto> {
    if (!isValidId('key', keyId)) throw new ApiError(ErrorCode.API_KEY_NOT_FOUND, `No API key with id '${keyId}'`);
    // The key names its merchant: the audit row is written in its log, with the revocation.
    const revoked = await this.unitOfWork.runRecorded(
      (key: ApiKeyEntity) => inTenant(audit, key.merchant_id, key.mode),
      async (tx) => {
        const key = await this.keys.revoke(tx, keyId);
        if (!key) throw new ApiError(ErrorCode.API_KEY_NOT_FOUND, `No API key with id '${keyId}'`);
        return key;
      },
    );
    // This instance forgets it now; others within the cache TTL.
    this.cache.deleteWhere((context) => context.credentialId === keyId);
    return toApiKeyResponse(revoked);
  }

  /**
   * A presented key as known before any lookup: cached (valid, or remembered as unknown), and
   * whether it may be valid at all. GuessingRules decides whether it is looked up.
   */
  credential(rawKey: string): SecretCredential<AuthContext> {
    if (!isWellFormedApiKey(rawKey)) return { cached: null, plausible: false, lookUp: () => Promise.resolve(null) };
    const hash = hashApiKey(rawKey);
    return {
      cached: this.unknownKeys.get(hash) ? null : this.cache.get(hash),
      plausible: this.checksum.holds(rawKey) || this.legacyKeys.has(hash),
      lookUp: () => this.lookUp(hash),
    };
  }

  /** Notes that an authenticated request used the key (last_used_at, written at most once a minute). */
  recordUse(context: AuthContext): void {
    const now = Date.now();
    const lastWrite = this.lastUsedWrites.get(context.credentialId) ?? 0;
    if (now - lastWrite < LAST_USED_WRITE_INTERVAL_MILLISECONDS) return;
    this.lastUsedWrites.set(context.credentialId, now);
    const write = this.unitOfWork
      .run((tx) => this.keys.touchLastUsed(tx, context.credentialId, new Date(now)))
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Could not record last_used_at');
      })
      .finally(() => this.pendingWrites.delete(write));
    this.pendingWrites.add(write);
  }

  private lookUp(hash: string): Promise<AuthContext | null> {
    let lookup = this.lookups.get(hash);
    if (!lookup) {
      lookup = this.keys
        .findActiveByHash(this.unitOfWork.pool, hash)
        .then((entity) => {
          if (!entity) {
            this.unknownKeys.set(hash, true);
            return null;
          }
          const context: AuthContext = {
            credential: 'api-key',
            credentialId: entity.id,
            actor: { type: 'api_key', id: entity.id, label: entity.prefix },
            merchantId: entity.merchant_id,
            mode: entity.mode,
            scopes: new Set(entity.scopes),
            tenant: { merchantId: entity.merchant_id, mode: entity.mode },
          };
          this.cache.set(hash, context);
          return context;
        })
        .finally(() => this.lookups.delete(hash));
      this.lookups.set(hash, lookup);
    }
    return lookup;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.legacyKeys.stop();
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
