import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/route-access.decorators';
import { RawResponse } from '../../envelope/raw-response.decorator';
import { AppConfig } from '../../config/app-config';
import { JsonWebKeySetDto, TokenIssuerDto } from './dto/entitlement-token-response.dto';
import { EntitlementSigningKeys } from './entitlement-signing-keys';

/** Beside the JWKS: the issuer a verifier pins (the SDK fetches it by this name). */
export const TOKEN_ISSUER_PATH = 'entitlement-token-issuer.json';

/** The public keys of entitlement tokens, where JOSE libraries look for them. */
@ApiTags('entitlements')
@Public()
@RawResponse()
@Controller('.well-known')
export class JwksController {
  constructor(
    private readonly keys: EntitlementSigningKeys,
    private readonly config: AppConfig,
  ) {}

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

  @Get(TOKEN_ISSUER_PATH)
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Issuer of entitlement tokens (discovery)',
    description:
      "Public, no API key. The `iss` every token carries (PUBLIC_BASE_URL) and the key set's URL, so a verifier that reaches " +
      'the service by another URL (a private address, 127.0.0.1) pins the issuer the service publishes; the SDK reads it when ' +
      'given no issuer. Not wrapped in the response envelope (shaped like OpenID discovery).',
  })
  @ApiOkResponse({ description: 'The issuer and its key set', type: TokenIssuerDto })
  issuer(): TokenIssuerDto {
    const issuer = this.config.publicBaseUrl;
    return { issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ['EdDSA'], audience_format: '{merchant id}:{live|test}' };
  }
}
