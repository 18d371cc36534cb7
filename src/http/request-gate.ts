import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthContext, RequestCredential } from '../auth/auth-context';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { HttpTimeouts } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isJsonApiPath, readJsonApiBody } from '../validation/request-body';
import { isDashboardPath } from './dashboard-assets';
import { announcesBody, armRequestDeadline } from '../exchange/request-deadline';
import { pathOf, pathProblem } from '../exchange/request-path';
import { bodyRulesFor } from './route-body-rules';

/** What the gate let through: the credential, and the parsed body of a JSON API request. */
export interface GatePass {
  credential: RequestCredential;
  auth: AuthContext | undefined;
  body: unknown;
}

/**
 * Everything a request goes through before routing, the same on both adapters (each calls it
 * from its earliest hook): a path that can name nothing is a 404; the credential is checked
 * (RequestAuthenticator) before any of the body is read; then the JSON API's body is read within
 * its deadline. A failure is thrown as a catalogue error; the adapter answers it, closing the
 * connection if a body was left unread (`leavesBodyUnread`).
 */
export class RequestGate {
  constructor(
    private readonly authenticator: RequestAuthenticator,
    private readonly timeouts: HttpTimeouts,
    private readonly dashboardEnabled: boolean = true,
  ) {}

  async pass(request: IncomingMessage, response: ServerResponse): Promise<GatePass> {
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
      clientAddress: request.socket.remoteAddress ?? '',
    });
    const body = isJsonApiPath(path) ? await readJsonApiBody(request, bodyRulesFor(request.method ?? 'GET', path)) : undefined;
    return { credential, auth: credential.kind === 'api-key' || credential.kind === 'dashboard-session' ? credential.auth : undefined, body };
  }

  /** Whether answering now leaves body bytes on the connection (then it must be closed). */
  static leavesBodyUnread(request: IncomingMessage): boolean {
    return announcesBody(request) && !request.complete;
  }
}
