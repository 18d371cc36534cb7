import { ApiProperty } from '@nestjs/swagger';

const EXAMPLE_TOKEN =
  'eyJhbGciOiJFZERTQSIsImtpZCI6IjNxR2pZRHZ0OUt0X0N4S0ZwQm1Da2ZqTXBsQVhrQ0M0Q3RnR0xPZkdkR0UiLCJ0eXAiOiJKV1QifQ.' +
  'eyJpZCI6ImVudF8wMWpkOHgzazJtNG41cDZxN3I4czl0MHYxdyIsInN0YXR1cyI6ImFjdGl2ZSJ9.' +
  'c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLW5vdC1hLXJlYWwtb25l';

export class EntitlementTokenResponseDto {
  @ApiProperty({
    description:
      'Compact JWS (alg EdDSA, kid in the header). Claims: the check\'s entitlement (id, product_id, status, granted_at, expires_at, ' +
      'metadata, access_type) plus iss (the service\'s PUBLIC_BASE_URL), aud ("{merchant id}:{live|test}"), sub (the customer id), ' +
      'merchant, livemode, customer_id, store_customer_id, product_id, store_product_id, iat, exp. Verify it against ' +
      'GET /.well-known/jwks.json, requiring iss and aud: a token of another merchant or mode then fails.',
    example: EXAMPLE_TOKEN,
  })
  token: string;

  @ApiProperty({
    description: "When the token expires (its exp claim): the earlier of the entitlement's expires_at and now + ENTITLEMENT_TOKEN_TTL",
    example: '2026-01-15T11:30:00.000Z',
  })
  expires_at: string;
}

/** An Ed25519 public key and a SHA-256 thumbprint are 32 bytes: 43 base64url characters. */
const BASE64URL_32_BYTES = 43;

/** One public key of the JWKS (RFC 7517), an Ed25519 key (RFC 8037). */
export class JsonWebKeyDto {
  @ApiProperty({ description: 'Key type', enum: ['OKP'], example: 'OKP' })
  kty: string;

  @ApiProperty({ description: 'Curve', enum: ['Ed25519'], example: 'Ed25519' })
  crv: string;

  @ApiProperty({ description: 'The public key, base64url', minLength: BASE64URL_32_BYTES, maxLength: BASE64URL_32_BYTES, pattern: '^[A-Za-z0-9_-]+$', example: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })
  x: string;

  @ApiProperty({ description: 'Key id (RFC 7638 thumbprint); a token names its key in its header', minLength: BASE64URL_32_BYTES, maxLength: BASE64URL_32_BYTES, pattern: '^[A-Za-z0-9_-]+$', example: '3qGjYDvt9Kt_CxKFpBmCkfjMplAXkCC4CtgGLOfGdGE' })
  kid: string;

  @ApiProperty({ description: 'Algorithm', enum: ['EdDSA'], example: 'EdDSA' })
  alg: string;

  @ApiProperty({ description: 'Use: signatures', enum: ['sig'], example: 'sig' })
  use: string;
}

/** Where a verifier learns what to pin: the issuer the service signs as, and its keys. */
export class TokenIssuerDto {
  @ApiProperty({
    description: "The `iss` of every token: the service's PUBLIC_BASE_URL, which may differ from the URL a client reaches it by",
    maxLength: 2048,
    example: 'https://entitlements.example.com',
  })
  issuer: string;

  @ApiProperty({ description: 'The key set that verifies them', maxLength: 2048, example: 'https://entitlements.example.com/.well-known/jwks.json' })
  jwks_uri: string;

  @ApiProperty({ description: 'Signing algorithms', type: [String], enum: ['EdDSA'], maxItems: 1, example: ['EdDSA'] })
  id_token_signing_alg_values_supported: string[];

  @ApiProperty({ description: 'How `aud` is built: the merchant id and the mode', enum: ['{merchant id}:{live|test}'], example: '{merchant id}:{live|test}' })
  audience_format: string;
}

export class JsonWebKeySetDto {
  @ApiProperty({
    description: 'The signing key first, then keys retired less than ENTITLEMENT_TOKEN_TTL ago (tokens they signed are still valid)',
    type: [JsonWebKeyDto],
  })
  keys: JsonWebKeyDto[];
}
