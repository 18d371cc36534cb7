import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { EventResponseDto } from './dto/event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventEntity } from './event.entity';
import { toEventResponse } from './event.mapper';
import { EventsRepository } from './events.repository';

@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** GET /v1/search's events (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.events.search(db, tenant, term, limit);
  }

  async list(tenant: Tenant, query: ListEventsQueryDto): Promise<PageResult<EventResponseDto>> {
    const page = toPageRequest(query);
    const filters = {
      type: query.type,
      objectId: query.object_id,
      createdAfter: query.created_after ? new Date(query.created_after) : undefined,
      createdBefore: query.created_before ? new Date(query.created_before) : undefined,
    };
    const { rows, total } = await this.events.list(this.unitOfWork.replica, tenant, filters, page);
    return toPageResult(rows, page, (row) => row.created_at, toEventResponse, total);
  }

  async get(tenant: Tenant, eventId: string): Promise<EventResponseDto> {
    return toEventResponse(await this.require(this.unitOfWork.pool, tenant, eventId));
  }

  /** The event of this tenant and mode, or 404 EVENT_NOT_FOUND (also for malformed ids). */
  async require(db: Reader, tenant: Tenant, eventId: string): Promise<EventEntity> {
    const event = isValidId('evt', eventId) ? await this.events.findById(db, tenant, eventId) : null;
    if (!event) throw new ApiError(ErrorCode.EVENT_NOT_FOUND, `No event with id '${eventId}'`);
    return event;
  }
}
