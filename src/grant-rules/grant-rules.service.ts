import { Injectable } from '@nestjs/common';
import type { ReadPart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader, Transaction } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { exactlyOne, OneOf } from '../validation/exactly-one';
import { ProductsService } from '../products/products.service';
import { CreateGrantRuleDto, UpdateGrantRuleDto } from './dto/grant-rule-request.dto';
import { DeletedGrantRuleResponseDto, GrantRuleResponseDto } from './dto/grant-rule-response.dto';
import { GrantRuleEntity } from './grant-rule.entity';
import { toGrantRuleResponse } from './grant-rule.mapper';
import { GrantRuleChanges, GrantRulesRepository } from './grant-rules.repository';

/** What a fired rule grants: the entitlements module makes the grant (DESIGN §10). */
export interface TriggeredGrant {
  ruleId: string;
  triggerProductId: string;
  grantProductId: string;
  accessDurationDays: number | null;
}

function toTriggeredGrant(rule: GrantRuleEntity): TriggeredGrant {
  return { ruleId: rule.id, triggerProductId: rule.trigger_product_id, grantProductId: rule.grant_product_id, accessDurationDays: rule.access_duration_days };
}

/**
 * Grant rules: the routes' reads and writes, and `triggeredBy`, which the entitlements module
 * asks inside every grant's transaction.
 */
@Injectable()
export class GrantRulesService {
  constructor(
    private readonly rules: GrantRulesRepository,
    private readonly products: ProductsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Each product named by id or store id (exactly one of each pair); both must be the tenant's
   * (404 PRODUCT_NOT_FOUND naming the field) and differ.
   */
  create(operation: Operation, input: CreateGrantRuleDto): Promise<GrantRuleResponseDto> {
    const { tenant } = operation;
    const trigger = exactlyOne({ trigger_product_id: input.trigger_product_id, trigger_store_product_id: input.trigger_store_product_id });
    const grant = exactlyOne({ grant_product_id: input.grant_product_id, grant_store_product_id: input.grant_store_product_id });
    return this.unitOfWork.run(operation, async (tx) => {
      const grantField = grant.field;
      const triggerProductId = await this.requireProduct(tx, tenant, trigger, 'trigger_product_id');
      const grantProductId = await this.requireProduct(tx, tenant, grant, 'grant_product_id');
      if (triggerProductId === grantProductId) {
        throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${grantField}': a rule cannot grant its own trigger product`, grantField);
      }
      const rule = await this.rules.insert(tx, tenant, {
        id: generateId('rule'),
        trigger_product_id: triggerProductId,
        grant_product_id: grantProductId,
        access_duration_days: input.access_duration_days ?? null,
        enabled: true,
      });
      return toGrantRuleResponse(rule);
    });
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<GrantRuleResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.rules.list(this.unitOfWork.replica, tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toGrantRuleResponse, total);
  }

  async get(tenant: Tenant, ruleId: string): Promise<GrantRuleResponseDto> {
    return toGrantRuleResponse(await this.require(this.unitOfWork.pool, tenant, ruleId));
  }

  update(operation: Operation, ruleId: string, input: UpdateGrantRuleDto): Promise<GrantRuleResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const current = await this.lock(tx, tenant, ruleId);
      const changes: GrantRuleChanges = {};
      if (input.enabled !== undefined) changes.enabled = input.enabled;
      if (input.access_duration_days !== undefined) changes.access_duration_days = input.access_duration_days;
      if (Object.keys(changes).length === 0) return toGrantRuleResponse(current);
      return toGrantRuleResponse(await this.rules.update(tx, tenant, ruleId, changes));
    });
  }

  /** Deleting a rule stops it firing; the grants it made stay. */
  delete(operation: Operation, ruleId: string): Promise<DeletedGrantRuleResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      await this.lock(tx, tenant, ruleId);
      await this.rules.delete(tx, tenant, ruleId);
      return { id: ruleId, deleted: true };
    });
  }

  /** The grants the enabled rules of these (just granted) products make, read in the grant's transaction. */
  async triggeredBy(tx: Transaction, tenant: Tenant, productIds: string[]): Promise<TriggeredGrant[]> {
    return (await this.rules.enabledForTriggers(tx, tenant, productIds)).map(toTriggeredGrant);
  }

  /**
   * The enabled rules that a grant of the product named by our id or store id fires, with those of
   * the products it includes, in the rules' order, as a part of the grant's combined read. A
   * malformed id is passed as null and matches nothing.
   */
  triggeredByGrantPart(tenant: Tenant, id: string | null, storeId: string | null): ReadPart<TriggeredGrant[]> {
    const part = this.rules.enabledForGrantPart(tenant, id, storeId);
    return { ...part, parse: (value, manager) => part.parse(value, manager).map(toTriggeredGrant) };
  }

  /** The id of the tenant's product named by our id (`idField`) or by its store id (the other field). */
  private async requireProduct(tx: Transaction, tenant: Tenant, named: OneOf<string>, idField: string): Promise<string> {
    const reference = named.field === idField ? { id: named.value } : { storeId: named.value };
    const product = await this.products.findForGrant(tx, tenant, reference);
    if (!product) {
      throw new ApiError(
        ErrorCode.PRODUCT_NOT_FOUND,
        named.field === idField ? `No product with id '${named.value}'` : `No product with store_product_id '${named.value}'`,
        named.field,
      );
    }
    return product.id;
  }

  private async require(db: Reader, tenant: Tenant, ruleId: string): Promise<GrantRuleEntity> {
    const rule = isValidId('rule', ruleId) ? await this.rules.findById(db, tenant, ruleId) : null;
    if (!rule) throw notFound(ruleId);
    return rule;
  }

  private async lock(tx: Transaction, tenant: Tenant, ruleId: string): Promise<GrantRuleEntity> {
    const rule = isValidId('rule', ruleId) ? await this.rules.lockById(tx, tenant, ruleId) : null;
    if (!rule) throw notFound(ruleId);
    return rule;
  }
}

function notFound(ruleId: string): ApiError {
  return new ApiError(ErrorCode.GRANT_RULE_NOT_FOUND, `No grant rule with id '${ruleId}'`);
}
