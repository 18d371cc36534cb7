import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/route-access.decorators';
import { RawResponse } from '../../envelope/raw-response.decorator';
import { JsonWebKeySetDto } from './dto/entitlement-token-response.dto';
import { EntitlementSigningKeys } from './entitlement-signing-keys';

/** The public keys of entitlement tokens, where JOSE libraries look for them. */
@ApiTags('entitlements')
@Public()
@RawResponse()
@Controller('.well-known')
export class JwksController {
  constructor(private readonly keys: EntitlementSigningKeys) {}

  @Get('jwks.json')
  // Short: after a rotation, verifiers must see the new key soon (jose refetches on an unknown kid).
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    summary: 'Public keys of entitlement tokens (JWKS)',
    description:
      'Public, no API key. The key signing tokens now, and each key retired less than ENTITLEMENT_TOKEN_TTL ago, so ' +
      'tokens signed before a rotation verify until they expire. Not wrapped in the response envelope (RFC 7517 shape).',
  })
  @ApiOkResponse({ description: 'The JSON Web Key Set', type: JsonWebKeySetDto })
  jwks(): Promise<JsonWebKeySetDto> {
    return this.keys.jwks();
  }
}
