import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { entityFromJson, ReadPart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { grantedProductIdsSql } from '../products/product-lookup.sql';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { GrantRuleEntity } from './grant-rule.entity';

export type GrantRuleChanges = Partial<Pick<GrantRuleEntity, 'enabled' | 'access_duration_days'>>;

/** SQL of grant_rules. */
@Injectable()
export class GrantRulesRepository {
  private readonly table = new TenantTable(GrantRuleEntity, 'rule');

  findById(db: Reader, tenant: Tenant, ruleId: string): Promise<GrantRuleEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: ruleId });
  }

  lockById(tx: Transaction, tenant: Tenant, ruleId: string): Promise<GrantRuleEntity | null> {
    return this.table.lockById(tx.manager, tenant, ruleId);
  }

  /** The enabled rules any of these products triggers, oldest first (the order their grants are made in). */
  enabledForTriggers(db: Reader, tenant: Tenant, productIds: string[]): Promise<GrantRuleEntity[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { trigger_product_id: In(productIds), enabled: true }, { created_at: 'ASC', id: 'ASC' });
  }

  /**
   * enabledForTriggers of the products a grant of one product brings in (the products module's
   * SQL names them), as a part of the grant's combined read: the same rules in the same order.
   */
  enabledForGrantPart(tenant: Tenant, id: string | null, storeId: string | null): ReadPart<GrantRuleEntity[]> {
    return {
      render: (parameters) => {
        const merchant = parameters.text(tenant.merchantId);
        const mode = parameters.text(tenant.mode);
        return `SELECT coalesce(jsonb_agg(to_jsonb(rule) ORDER BY rule.created_at, rule.id), '[]'::jsonb) FROM grant_rules rule
          WHERE rule.merchant_id = ${merchant} AND rule.mode = ${mode} AND rule.enabled
            AND rule.trigger_product_id IN (${grantedProductIdsSql(merchant, mode, parameters.text(id), parameters.text(storeId))})`;
      },
      parse: (value, manager) => (Array.isArray(value) ? value.map((row) => entityFromJson(manager, GrantRuleEntity, row as Record<string, unknown>)) : []),
    };
  }

  async insert(tx: Transaction, tenant: Tenant, rule: Pick<GrantRuleEntity, 'id' | 'trigger_product_id' | 'grant_product_id' | 'access_duration_days' | 'enabled'>): Promise<GrantRuleEntity> {
    await this.table.insert(tx.manager, tenant, rule);
    return this.require(tx, tenant, rule.id);
  }

  async update(tx: Transaction, tenant: Tenant, ruleId: string, changes: GrantRuleChanges): Promise<GrantRuleEntity> {
    await this.table.update(tx.manager, tenant, { id: ruleId }, changes);
    return this.require(tx, tenant, ruleId);
  }

  async delete(tx: Transaction, tenant: Tenant, ruleId: string): Promise<void> {
    await this.table.delete(tx.manager, tenant, { id: ruleId });
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: GrantRuleEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.table.select(db.manager, tenant), 'rule', page);
  }

  private async require(tx: Transaction, tenant: Tenant, ruleId: string): Promise<GrantRuleEntity> {
    const rule = await this.findById(tx, tenant, ruleId);
    if (!rule) throw new Error(`Grant rule ${ruleId} vanished inside its own transaction`);
    return rule;
  }
}
