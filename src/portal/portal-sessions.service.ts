import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiKeyCache, UNKNOWN_API_KEY_TTL_MILLISECONDS } from '../auth/api-key-cache';
import type { PortalSessionCredential } from '../auth/auth-context';
import { CredentialChecksum } from '../auth/credential-checksum';
import { GuessingRules, SecretCredential } from '../auth/guessing-rules';
import type { PortalSessionLookup } from '../auth/portal-session-lookup';
import { SessionCookie } from '../auth/session-cookie';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { CreatePortalSessionDto } from './dto/portal-session-request.dto';
import { PortalSessionResponseDto } from './dto/portal-session-response.dto';
import type { PortalSessionEntity } from './portal-session.entity';
import { PortalSessionsRepository } from './portal-sessions.repository';

/** DESIGN §19: a portal link works once, within an hour. */
export const PORTAL_LINK_VALIDITY_MILLISECONDS = 60 * 60 * 1000;
/** DESIGN §19: the portal's browser session ends after 12 hours without a request, as the dashboard's. */
export const PORTAL_SESSION_IDLE_MILLISECONDS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, to keep a write off most requests. */
const TOUCH_INTERVAL_MILLISECONDS = 60_000;
/** Where a link is opened: `/portal/open/{token}` on PUBLIC_BASE_URL. */
export const PORTAL_OPEN_PATH = '/portal/open/';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');

/** What opening a link came to: a session (its cookie's token), or the page that says why not. */
export type OpenedLink = { outcome: 'opened'; cookieToken: string } | { outcome: 'used' } | { outcome: 'expired' };

/**
 * Portal sessions (DESIGN §19): one-time links the merchant's backend asks for, and the browser
 * sessions they start. Both tokens are 32 random bytes (256 bits) with the keyed checksum of
 * DESIGN §13, so a guessed token from an address over the failure limit costs no lookup; only
 * their SHA-256 is stored. The request authenticator resolves portal cookies through this.
 */
@Injectable()
export class PortalSessionsService implements PortalSessionLookup {
  private readonly plainCookie = new SessionCookie('eh_portal', false);
  private readonly secureCookie = new SessionCookie('eh_portal', true);
  private readonly alwaysSecure: boolean;
  /** Tokens (links and cookies) that named nothing, remembered so a spray reaches the database once each. */
  private readonly unknownTokens = new ApiKeyCache<true>(UNKNOWN_API_KEY_TTL_MILLISECONDS);

  constructor(
    private readonly sessions: PortalSessionsRepository,
    private readonly customers: CustomerRecordsService,
    private readonly guessing: GuessingRules,
    private readonly checksum: CredentialChecksum,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.alwaysSecure = config.publicBaseUrl.startsWith('https:');
  }

  /** POST /v1/portal-sessions: the link for one customer, shown once (only its hash is kept). */
  async create(operation: Operation, body: CreatePortalSessionDto): Promise<PortalSessionResponseDto> {
    const { tenant } = operation;
    const returnUrl = body.return_url === undefined || body.return_url === null ? null : checkedReturnUrl(body.return_url);
    const token = this.newToken();
    const now = this.clock.now();
    // The transaction's result is the response (an Idempotency-Key's replay stores exactly it): the
    // answer is built inside, and never the row, which holds the link's hash.
    return this.unitOfWork.run(operation, async (tx) => {
      const customer = await this.customerOf(tx, tenant, body);
      const session = await this.sessions.create(tx, tenant, {
        customerId: customer.id,
        returnUrl,
        linkTokenHash: sha256(token),
        linkExpiresAt: new Date(now.getTime() + PORTAL_LINK_VALIDITY_MILLISECONDS),
      });
      return {
        id: session.id,
        url: `${this.config.publicBaseUrl}${PORTAL_OPEN_PATH}${token}`,
        expires_at: session.link_expires_at.toISOString(),
        customer_id: session.customer_id,
        return_url: session.return_url,
        created_at: session.created_at.toISOString(),
      };
    });
  }

  /**
   * Opens a link: the first opening within the hour starts the session; any later one, or one
   * after the hour, starts nothing. An unknown token is a failed guess (GuessingRules: 429 past the
   * address's limit, with no lookup for a token whose checksum fails).
   */
  async open(token: string, clientAddress: string): Promise<OpenedLink> {
    const link = await this.guessing.secret(clientAddress, this.linkCredential(token), () => new ApiError(ErrorCode.NOT_FOUND, 'No such portal link'));
    const now = this.clock.now();
    if (link.opened_at !== null) return { outcome: 'used' };
    if (link.link_expires_at.getTime() <= now.getTime()) return { outcome: 'expired' };
    const cookieToken = this.newToken();
    const tenant: Tenant = { merchantId: link.merchant_id, mode: link.mode };
    const opened = await this.unitOfWork.run((tx) => this.sessions.open(tx, tenant, link.id, { cookieTokenHash: sha256(cookieToken), csrfToken: randomBytes(32).toString('base64url'), now }));
    // Another opening won the race (or the hour ended in between): this one starts nothing.
    if (!opened) return link.link_expires_at.getTime() <= now.getTime() ? { outcome: 'expired' } : { outcome: 'used' };
    return { outcome: 'opened', cookieToken };
  }

  /** The portal cookie of a request: `Secure` and `__Host-` when PUBLIC_BASE_URL is https, or the request came over https. */
  cookieFor(secure: boolean): SessionCookie {
    return secure || this.alwaysSecure ? this.secureCookie : this.plainCookie;
  }

  tokenFrom(headers: IncomingHttpHeaders, secure: boolean): string | null {
    return this.cookieFor(secure).tokenFrom(headers);
  }

  /** A presented cookie as known before any lookup; GuessingRules decides whether it is looked up. */
  credential(token: string): SecretCredential<PortalSessionCredential> {
    const hash = sha256(token);
    return {
      cached: this.unknownTokens.get(`cookie:${hash}`) ? null : undefined,
      plausible: this.checksum.holds(token),
      lookUp: async () => {
        const found = await this.resolve(hash);
        if (!found) this.unknownTokens.set(`cookie:${hash}`, true);
        return found;
      },
    };
  }

  /** Ends a session (the portal's sign-out). */
  end(session: PortalSessionCredential): Promise<void> {
    return this.unitOfWork.run((tx) => this.sessions.end(tx, { merchantId: session.merchantId, mode: session.mode }, session.sessionId, this.clock.now()));
  }

  private linkCredential(token: string): SecretCredential<PortalSessionEntity> {
    const hash = sha256(token);
    return {
      cached: this.unknownTokens.get(`link:${hash}`) ? null : undefined,
      plausible: this.checksum.holds(token),
      lookUp: async () => {
        const found = await this.sessions.findByLinkTokenHash(this.unitOfWork.pool, hash);
        if (!found) this.unknownTokens.set(`link:${hash}`, true);
        return found;
      },
    };
  }

  private async resolve(cookieTokenHash: string): Promise<PortalSessionCredential | null> {
    const session = await this.sessions.findOpenByCookieTokenHash(this.unitOfWork.pool, cookieTokenHash);
    if (!session || session.last_seen_at === null || session.csrf_token === null) return null;
    const tenant: Tenant = { merchantId: session.merchant_id, mode: session.mode };
    const now = this.clock.now();
    const idle = now.getTime() - session.last_seen_at.getTime();
    if (idle > PORTAL_SESSION_IDLE_MILLISECONDS) {
      await this.unitOfWork.run((tx) => this.sessions.end(tx, tenant, session.id, now));
      return null;
    }
    if (idle > TOUCH_INTERVAL_MILLISECONDS) await this.unitOfWork.run((tx) => this.sessions.touch(tx, tenant, session.id, now));
    return { sessionId: session.id, merchantId: session.merchant_id, mode: session.mode, customerId: session.customer_id, csrfToken: session.csrf_token, returnUrl: session.return_url };
  }

  private newToken(): string {
    return this.checksum.seal(randomBytes(32).toString('base64url'));
  }

  private customerOf(tx: Parameters<CustomerRecordsService['require']>[0], tenant: Tenant, body: CreatePortalSessionDto) {
    const byId = body.customer_id !== undefined;
    const byStoreId = body.store_customer_id !== undefined;
    // As POST /v1/entitlements: neither is a missing field, both an invalid pair.
    if (!byId && !byStoreId) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, 'Name the customer: customer_id or store_customer_id', 'customer_id');
    if (byId && byStoreId) throw new ApiError(ErrorCode.INVALID_PARAMETER, 'Send one of customer_id and store_customer_id, not both', 'store_customer_id');
    return byId ? this.customers.require(tx, tenant, body.customer_id as string) : this.customers.requireByStoreId(tx, tenant, body.store_customer_id as string);
  }
}

/**
 * `return_url` (DESIGN §19): https, or http on a loopback address only (a merchant's local
 * development); nothing else, so the portal never sends a customer to a page an eavesdropper can
 * rewrite, nor to `javascript:`.
 */
export function checkedReturnUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, 'return_url must be an absolute https URL', 'return_url');
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, 'return_url must be https (http only on localhost, 127.0.0.1 or [::1])', 'return_url');
  }
  if (url.username !== '' || url.password !== '') throw new ApiError(ErrorCode.INVALID_PARAMETER, 'return_url must not carry credentials', 'return_url');
  return url.toString();
}
