import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiKeysService } from '../auth/api-keys.service';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto, MerchantResponseDto } from '../auth/dto/admin-response.dto';
import { MerchantsService } from '../auth/merchants.service';
import { AdminRoute } from '../auth/route-access.decorators';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateApiKeyDto } from '../auth/dto/api-key-request.dto';
import { CreateMerchantDto, UpdateMerchantTermsDto } from './dto/admin-request.dto';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { CurrentAudit, RequestAudit } from '../auth/request-audit';

const MERCHANT_ID = ApiIdParam('merchant_id', 'mer', 'Merchant', ['POST /admin/v1/merchants']);

/** Admin API (DESIGN §3): on only when ADMIN_TOKEN is set. */
@AdminRoute()
@Controller('admin/v1')
export class AdminController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Post('merchants')
  @ApiOperation({ summary: 'Create a merchant' })
  @ApiEnvelopeResponse(MerchantResponseDto, { status: 201, description: 'The merchant' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  createMerchant(@CurrentAudit() audit: RequestAudit, @Body() body: CreateMerchantDto): Promise<MerchantResponseDto> {
    return this.merchants.create(body.name, body.plan, audit);
  }

  @Get('merchants/:merchant_id')
  @ApiOperation({ summary: 'Get a merchant' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(MerchantResponseDto, { description: 'The merchant' })
  @ApiErrorResponses(ErrorCode.MERCHANT_NOT_FOUND)
  getMerchant(@Param('merchant_id') merchantId: string): Promise<MerchantResponseDto> {
    return this.merchants.get(merchantId);
  }

  @Patch('merchants/:merchant_id')
  @ApiOperation({
    summary: "Rename a merchant, change its plan or set its own terms",
    description:
      'Any of name, plan, own limits (`limits`), own overage price per GiB (`overage_price_per_gib`) and Stripe customer (`stripe_customer_id`). ' +
      "A field left out stays as it is; a limit or price set to null restores the plan's. Every instance applies the change within 5 seconds.",
  })
  @MERCHANT_ID
  @ApiEnvelopeResponse(MerchantResponseDto, { description: 'The merchant after the change' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.MERCHANT_NOT_FOUND)
  updateMerchant(@CurrentAudit() audit: RequestAudit, @Param('merchant_id') merchantId: string, @Body() body: UpdateMerchantTermsDto): Promise<MerchantResponseDto> {
    return this.merchants.update(merchantId, body, audit);
  }

  @Post('merchants/:merchant_id/api-keys')
  @ApiOperation({ summary: 'Create an API key', description: 'The secret `key` appears only in this response.' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(CreatedApiKeyResponseDto, { status: 201, description: 'The key, with its secret' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.MERCHANT_NOT_FOUND)
  createApiKey(@CurrentAudit() audit: RequestAudit, @Param('merchant_id') merchantId: string, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponseDto> {
    return this.apiKeys.create(merchantId, body, audit);
  }

  @Get('merchants/:merchant_id/api-keys')
  @ApiOperation({ summary: "List a merchant's API keys", description: 'Without secrets; revoked keys included.' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(ApiKeyResponseDto, { description: 'The keys, newest first', array: true })
  @ApiErrorResponses(ErrorCode.MERCHANT_NOT_FOUND)
  listApiKeys(@Param('merchant_id') merchantId: string): Promise<ApiKeyResponseDto[]> {
    return this.apiKeys.list(merchantId);
  }

  @Delete('api-keys/:api_key_id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key', description: 'Every instance refuses it within 5 seconds.' })
  @ApiIdParam('api_key_id', 'key', 'API key', ['POST /admin/v1/merchants/{merchant_id}/api-keys', 'GET /admin/v1/merchants/{merchant_id}/api-keys'])
  @ApiEnvelopeResponse(ApiKeyResponseDto, { description: 'The revoked key' })
  @ApiErrorResponses(ErrorCode.API_KEY_NOT_FOUND)
  revokeApiKey(@CurrentAudit() audit: RequestAudit, @Param('api_key_id') keyId: string): Promise<ApiKeyResponseDto> {
    return this.apiKeys.revoke(keyId, audit);
  }
}
