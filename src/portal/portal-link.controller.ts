import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { Public } from '../auth/route-access.decorators';
import { RawResponse } from '../envelope/raw-response.decorator';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { clientOf } from '../exchange/client-address';
import { HttpRequest, HttpResponse, rawRequestOf, takeOverResponse } from '../exchange/http-exchange';
import { LINK_EXPIRED, LINK_UNKNOWN, LINK_USED, PORTAL_MESSAGE_PAGE_POLICY, PortalMessage, renderMessagePage, TOO_MANY_ATTEMPTS } from './portal-pages';
import { PortalSessionsService } from './portal-sessions.service';

/** Where the portal app lives; a session that starts is sent there. */
export const PORTAL_APP_PATH = '/portal/';

/**
 * Opening a portal link (DESIGN §19): the browser the merchant redirected gets the portal cookie
 * and is sent on to the app, or a page saying why not. HTML, not the JSON envelope: a person
 * reads it. Outside the public OpenAPI document: no merchant code calls it.
 */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller('portal/open')
export class PortalLinkController {
  constructor(private readonly sessions: PortalSessionsService) {}

  @Get(':token')
  async open(@Param('token') token: string, @Req() request: HttpRequest, @Res() response: HttpResponse): Promise<void> {
    const client = clientOf(rawRequestOf(request));
    const raw = takeOverResponse(response);
    try {
      const opened = await this.sessions.open(token, client.address);
      if (opened.outcome === 'used') return sendMessage(raw, LINK_USED);
      if (opened.outcome === 'expired') return sendMessage(raw, LINK_EXPIRED);
      // 303: the link is not to be fetched again, the app is.
      raw.writeHead(303, {
        Location: PORTAL_APP_PATH,
        'Set-Cookie': this.sessions.cookieFor(client.secure).serialize(opened.cookieToken),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Length': '0',
      });
      raw.end();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === ErrorCode.RATE_LIMITED) return sendMessage(raw, TOO_MANY_ATTEMPTS, error.headers);
      if (error.code === ErrorCode.NOT_FOUND) return sendMessage(raw, LINK_UNKNOWN);
      throw error;
    }
  }
}

function sendMessage(response: ServerResponse, message: PortalMessage, headers: Record<string, string> = {}): void {
  const body = renderMessagePage(message);
  response.writeHead(message.status, {
    ...headers,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Content-Security-Policy': PORTAL_MESSAGE_PAGE_POLICY,
    'Cache-Control': 'no-store',
    // The link's token is in this page's address: no other site learns it from a Referer.
    'Referrer-Policy': 'no-referrer',
  });
  response.end(body);
}
