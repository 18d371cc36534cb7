import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import type { HttpResponse } from '../exchange/http-exchange';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { PutSubscriptionDto } from './dto/put-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/subscription-query.dto';
import { SubscriptionResponseDto } from './dto/subscription-response.dto';
import { SubscriptionsService } from './subscriptions.service';
import { ApiIdParam, ApiStoreIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const STORE_ID_PARAM = ApiStoreIdParam('store_subscription_id', 'Subscription id in the e-commerce platform: the first put creates the subscription', 'store_sub_1001');

@ApiTags('subscriptions')
@Controller('v1/subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Put('store/:store_subscription_id')
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: "Report a store subscription's state",
    description:
      'Keeps one subscription_linked entitlement (source subscription) in step with the store: active, trialing, ' +
      'past_due → active (granted if none, reactivated if suspended or expired), with expires_at = current_period_end ' +
      'when cancel_at_period_end is true; paused → suspended; canceled → expired now. A revoked entitlement stays ' +
      'revoked. customer and product are required on the first put (201) and may not change later (409 ' +
      'SUBSCRIPTION_CONFLICT); later puts answer 200. A put whose store_updated_at is older than the last applied one ' +
      'changes nothing (200, applied: false). Omitted current_period_end / cancel_at_period_end keep their stored ' +
      'values. Puts of one subscription run one after the other. Publishes subscription.created / subscription.updated ' +
      'and the entitlement events.',
  })
  @STORE_ID_PARAM
  @ApiJsonBody(PutSubscriptionDto, {
    store_customer_id: 'store_cust_1001',
    store_product_id: 'sku_pro_monthly',
    status: 'active',
    current_period_end: '2027-02-01T00:00:00Z',
    cancel_at_period_end: false,
    store_updated_at: '2026-11-20T10:00:00Z',
  })
  @ApiEnvelopeResponse(SubscriptionResponseDto, { status: 201, description: 'The first put: the subscription was created' })
  @ApiEnvelopeResponse(SubscriptionResponseDto, { status: 200, description: 'A later put (applied: false when it was out of date)' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.CUSTOMER_NOT_FOUND,
    ErrorCode.PRODUCT_NOT_FOUND,
    ErrorCode.PRODUCT_ARCHIVED,
    ErrorCode.SUBSCRIPTION_CONFLICT,
  )
  async put(
    @CurrentOperation() operation: Operation,
    @Param('store_subscription_id') storeSubscriptionId: string,
    @Body() body: PutSubscriptionDto,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<SubscriptionResponseDto> {
    const result = await this.subscriptions.put(operation, storeSubscriptionId, body);
    response.status(result.created ? 201 : 200);
    return result.subscription;
  }

  @Get('store/:store_subscription_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get a subscription by its store id' })
  @STORE_ID_PARAM
  @ApiEnvelopeResponse(SubscriptionResponseDto, { description: 'The subscription' })
  @ApiErrorResponses(ErrorCode.SUBSCRIPTION_NOT_FOUND)
  getByStoreId(@CurrentTenant() tenant: Tenant, @Param('store_subscription_id') storeSubscriptionId: string): Promise<SubscriptionResponseDto> {
    return this.subscriptions.getByStoreId(tenant, storeSubscriptionId);
  }

  @Get(':subscription_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get a subscription' })
  @ApiIdParam('subscription_id', 'sub', 'Subscription', ['PUT /v1/subscriptions/store/{store_subscription_id}', 'GET /v1/subscriptions'])
  @ApiEnvelopeResponse(SubscriptionResponseDto, { description: 'The subscription' })
  @ApiErrorResponses(ErrorCode.SUBSCRIPTION_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('subscription_id') subscriptionId: string): Promise<SubscriptionResponseDto> {
    return this.subscriptions.get(tenant, subscriptionId);
  }

  @Get()
  @RequireScopes('entitlements:read')
  @ApiOperation(mayLag({
    summary: 'List subscriptions',
    description:
      'Newest first, cursor-paginated with total. Optional filters: one of customer_id / store_customer_id (an unknown customer has ' +
      'none), `status` (the store status), `search` (an exact subscription id or store subscription id).',
  }))
  @ApiEnvelopeResponse(SubscriptionResponseDto, { description: 'A page of subscriptions', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListSubscriptionsQueryDto): Promise<PageResult<SubscriptionResponseDto>> {
    return this.subscriptions.list(tenant, query);
  }
}
