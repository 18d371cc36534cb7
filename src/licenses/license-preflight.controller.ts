import { Controller, Options, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/route-access.decorators';
import { RawResponse } from '../envelope/raw-response.decorator';
import { HttpResponse, takeOverResponse } from '../exchange/http-exchange';

/** What a browser may send cross-origin to the app routes (every response of theirs allows any origin: src/http/exchange-start.ts). */
const PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
};

/**
 * A browser's preflight before an app route's POST (its JSON Content-Type is not a simple one):
 * apps built on web technology (Electron, a web page) call the license routes from any origin.
 * No credential is involved (the key is in the body, no cookie is read), so any origin may.
 */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller('v1/licenses')
export class LicensePreflightController {
  @Options(':action')
  preflight(@Res() response: HttpResponse): void {
    takeOverResponse(response).writeHead(204, PREFLIGHT_HEADERS).end();
  }
}
