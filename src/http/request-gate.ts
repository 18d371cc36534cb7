import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthContext, RequestCredential } from '../auth/auth-context';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { HttpTimeouts } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isJsonApiPath, readJsonApiBody } from '../validation/request-body';
import { ClientAddressResolver, RequestClient } from '../exchange/client-address';
import { isDashboardPath } from './dashboard-assets';
import { announcesBody, armRequestDeadline } from '../exchange/request-deadline';
import { pathOf, pathProblem } from '../exchange/request-path';
import { bodyRulesFor } from '../validation/route-body-rules';
import type { MerchantAdmission } from '../rate-limiting/merchant-admission';

/** The merchant a request acts for: an API key's, a dashboard session's; null for the admin and the public routes. */
function merchantOf(credential: RequestCredential): string | null {
  if (credential.kind === 'api-key') return credential.auth.merchantId;
  if (credential.kind === 'dashboard-session') return credential.session.merchantId;
  return null;
}

/**
 * A GET or HEAD takes no body: every field of one is an unknown field (400 naming it), as in any
 * other body, never silently ignored. An empty body or `{}` names nothing and passes.
 */
function refuseReadBody(method: string, body: unknown): void {
  if ((method !== 'GET' && method !== 'HEAD') || body === null || typeof body !== 'object') return;
  const [field] = Object.keys(body);
  if (field !== undefined) throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${field}': a ${method} request takes no body`, field);
}

/** What the gate let through: the credential, and the parsed body of a JSON API request. */
export interface GatePass {
  credential: RequestCredential;
  auth: AuthContext | undefined;
  body: unknown;
}

/**
 * Everything a request goes through before routing, the same on both adapters (each calls it
 * from its earliest hook): the client's address is resolved (TRUST_PROXY; once, kept on the
 * request); a path that can name nothing is a 404; the credential is checked
 * (RequestAuthenticator) before any of the body is read; the merchant's request takes a slot of its
 * fair share (MerchantAdmission), waiting for one while the merchant has too many in flight; then
 * the JSON API's body is read within its deadline (a body still arriving holds its merchant's slot,
 * not anyone else's). A failure is thrown as a catalogue error; the adapter answers it, closing the
 * connection if a body was left unread (`leavesBodyUnread`).
 */
export class RequestGate {
  constructor(
    private readonly authenticator: RequestAuthenticator,
    private readonly timeouts: HttpTimeouts,
    private readonly dashboardEnabled: boolean = true,
    private readonly clients: ClientAddressResolver = new ClientAddressResolver(null),
    private readonly admission: MerchantAdmission | null = null,
  ) {}

  /** The request's client (address, https or not), resolved on first ask and kept on the request. */
  clientOf(request: IncomingMessage): RequestClient {
    return this.clients.of(request);
  }

  async pass(request: IncomingMessage, response: ServerResponse): Promise<GatePass> {
    const client = this.clients.of(request);
    const path = pathOf(request.url ?? '/');
    const problem = pathProblem(path);
    if (problem) throw new ApiError(ErrorCode.NOT_FOUND, problem);
    // DASHBOARD_ENABLED=false: the dashboard's JSON routes are absent too.
    if (!this.dashboardEnabled && isDashboardPath(path)) throw new ApiError(ErrorCode.NOT_FOUND, `No route ${request.method ?? 'GET'} ${path}`);
    if (announcesBody(request)) armRequestDeadline(request, response, this.timeouts.requestMilliseconds);
    const credential = await this.authenticator.authenticate({
      method: request.method ?? 'GET',
      path,
      headers: request.headers,
      clientAddress: client.address,
      secure: client.secure,
    });
    const merchantId = this.admission === null ? null : merchantOf(credential);
    if (merchantId !== null) {
      // Under the limit: no promise and no await (the check's fast path); over it: a turn in the queue.
      const turn = this.admission?.admit(merchantId, response) ?? null;
      if (turn !== null) await turn;
    }
    const body = isJsonApiPath(path) ? await readJsonApiBody(request, bodyRulesFor(request.method ?? 'GET', path)) : undefined;
    refuseReadBody(request.method ?? 'GET', body);
    return { credential, auth: credential.kind === 'api-key' || credential.kind === 'dashboard-session' || credential.kind === 'portal-session' ? credential.auth : undefined, body };
  }

  /** Whether answering now leaves body bytes on the connection (then it must be closed). */
  static leavesBodyUnread(request: IncomingMessage): boolean {
    return announcesBody(request) && !request.complete;
  }
}
