import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Tenant } from '../database/tenant';
import { TenantTable, WithoutTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export type NewWebhookEndpoint = WithoutTenant<Omit<WebhookEndpointEntity, 'merchant' | 'created_at' | 'updated_at'>>;
export type WebhookEndpointChanges = Partial<Omit<NewWebhookEndpoint, 'id'>>;

@Injectable()
export class WebhookEndpointsRepository {
  private readonly table = new TenantTable(WebhookEndpointEntity, 'endpoint');

  insert(tx: Transaction, tenant: Tenant, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointEntity> {
    return this.table.insert(tx.manager, tenant, endpoint as QueryDeepPartialEntity<WebhookEndpointEntity>);
  }

  /** Applies the changes; returns the endpoint as stored, or null when it is gone. */
  async update(tx: Transaction, tenant: Tenant, endpointId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpointEntity | null> {
    if (Object.keys(changes).length > 0) await this.table.update(tx.manager, tenant, { id: endpointId }, changes as QueryDeepPartialEntity<WebhookEndpointEntity>);
    return this.findById(tx, tenant, endpointId);
  }

  findById(db: Reader, tenant: Tenant, endpointId: string): Promise<WebhookEndpointEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: endpointId });
  }

  /** Enabled endpoints of the tenant subscribed to this type, read in the publishing transaction. */
  findSubscribed(tx: Transaction, tenant: Tenant, type: string): Promise<WebhookEndpointEntity[]> {
    return this.table
      .select(tx.manager, tenant)
      .andWhere('endpoint.disabled = false')
      .andWhere("(:type = ANY(endpoint.enabled_events) OR '*' = ANY(endpoint.enabled_events))", { type })
      .orderBy('endpoint.id')
      .getMany();
  }

  async list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: WebhookEndpointEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.table.select(db.manager, tenant), 'endpoint', page);
  }

  async delete(tx: Transaction, tenant: Tenant, endpointId: string): Promise<void> {
    await this.table.delete(tx.manager, tenant, { id: endpointId });
  }

  /** A 410 Gone answer turns the endpoint off until its owner turns it back on. */
  async disableAsGone(tx: Transaction, tenant: Tenant, endpointId: string): Promise<void> {
    await this.table.update(tx.manager, tenant, { id: endpointId }, { disabled: true, disabled_reason: 'endpoint_gone' });
  }
}
