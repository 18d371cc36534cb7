import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentScopes, type CallerScopes } from '../auth/caller-scopes.decorator';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { mayLag } from '../swagger/replica-lag';
import { SearchQueryDto } from './dto/search-query.dto';
import { SEARCH_OBJECTS, SearchResultDto } from './dto/search-result.dto';
import { SEARCH_LIMIT_PER_OBJECT, SearchService } from './search.service';

/** One box for every id and store id (DESIGN §11: paste anything, jump to its record). */
@ApiTags('search')
@Controller('v1/search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Get()
  // Every dashboard role and any key that may list customers may search; each kind of record is
  // found only by a caller holding the scope that reads it elsewhere (see the description).
  @RequireScopes('customers:read')
  @ApiOperation(
    mayLag({
      summary: 'Search everything by id or store id',
      description:
        'Finds, in the key\'s mode: the record with this id (cus_, ent_, prod_, ord_, sub_, file_, evt_), and the customers, products, ' +
        `orders and subscriptions whose store id starts with \`q\` (case-sensitive; \`%\` and \`_\` are plain characters). At most ` +
        `${SEARCH_LIMIT_PER_OBJECT} records of each kind, the exact id first, then by kind and store id; no pagination. Needs ` +
        '`customers:read`; entitlements, orders and subscriptions are included with `entitlements:read`, products with `products:read`, ' +
        'files with `files:read` and events with `events:read`. Customers carry no email of their own: a store id that is an email is ' +
        'found by its start like any store id.',
    }),
  )
  @ApiEnvelopeResponse(SearchResultDto, { description: 'The records found (possibly none)', array: true, maxItems: SEARCH_LIMIT_PER_OBJECT * SEARCH_OBJECTS.length })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  search(@CurrentTenant() tenant: Tenant, @CurrentScopes() holds: CallerScopes, @Query() query: SearchQueryDto): Promise<SearchResultDto[]> {
    return this.searchService.search(tenant, query.q, holds);
  }
}
