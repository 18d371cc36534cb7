import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateGrantRuleDto, UpdateGrantRuleDto } from './dto/grant-rule-request.dto';
import { DeletedGrantRuleResponseDto, GrantRuleResponseDto } from './dto/grant-rule-response.dto';
import { GrantRulesService } from './grant-rules.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const RULE_ID_PARAM = ApiIdParam('rule_id', 'rule', 'Grant rule', ['POST /v1/grant-rules', 'GET /v1/grant-rules']);

@ApiTags('grant-rules')
@Controller('v1/grant-rules')
export class GrantRulesController {
  constructor(private readonly rules: GrantRulesService) {}

  @Post()
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Create a grant rule',
    description:
      'When an entitlement for trigger_product_id is created by any source but rule (api, order, subscription, import, ' +
      'manual, and bundle children), grant_product_id is granted to the same customer in the same transaction (source ' +
      'rule; expires_at from access_duration_days when set), unless the customer already holds an active entitlement for ' +
      'it. Rule grants never fire rules. An archived grant product is skipped.',
  })
  @ApiJsonBody(CreateGrantRuleDto, { trigger_store_product_id: 'sku_ebook_42', grant_store_product_id: 'sku_api_credits_100', access_duration_days: 30 })
  @ApiEnvelopeResponse(GrantRuleResponseDto, { status: 201, description: 'The rule' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.PRODUCT_NOT_FOUND, ErrorCode.IDEMPOTENCY_KEY_CONFLICT)
  create(@CurrentOperation() operation: Operation, @Body() body: CreateGrantRuleDto): Promise<GrantRuleResponseDto> {
    return this.rules.create(operation, body);
  }

  @Get()
  @RequireScopes('products:read')
  @ApiOperation(mayLag({ summary: 'List grant rules', description: 'Newest first, cursor-paginated with total.' }))
  @ApiEnvelopeResponse(GrantRuleResponseDto, { description: 'A page of rules', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<GrantRuleResponseDto>> {
    return this.rules.list(tenant, query);
  }

  @Get(':rule_id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Get a grant rule' })
  @RULE_ID_PARAM
  @ApiEnvelopeResponse(GrantRuleResponseDto, { description: 'The rule' })
  @ApiErrorResponses(ErrorCode.GRANT_RULE_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('rule_id') ruleId: string): Promise<GrantRuleResponseDto> {
    return this.rules.get(tenant, ruleId);
  }

  @Patch(':rule_id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Update a grant rule', description: 'enabled and access_duration_days; later grants only.' })
  @RULE_ID_PARAM
  @ApiBody({ type: UpdateGrantRuleDto })
  @ApiEnvelopeResponse(GrantRuleResponseDto, { description: 'The updated rule' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.GRANT_RULE_NOT_FOUND)
  update(@CurrentOperation() operation: Operation, @Param('rule_id') ruleId: string, @Body() body: UpdateGrantRuleDto): Promise<GrantRuleResponseDto> {
    return this.rules.update(operation, ruleId, body);
  }

  @Delete(':rule_id')
  @HttpCode(200)
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Delete a grant rule', description: 'The rule stops firing; the entitlements it granted stay.' })
  @RULE_ID_PARAM
  @ApiEnvelopeResponse(DeletedGrantRuleResponseDto, { description: 'Deleted' })
  @ApiErrorResponses(ErrorCode.GRANT_RULE_NOT_FOUND)
  delete(@CurrentOperation() operation: Operation, @Param('rule_id') ruleId: string): Promise<DeletedGrantRuleResponseDto> {
    return this.rules.delete(operation, ruleId);
  }
}
