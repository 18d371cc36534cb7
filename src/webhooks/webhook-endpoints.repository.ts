import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  save(tenant: Tenant, endpoint: WebhookEndpointEntity): Promise<WebhookEndpointEntity> {
    endpoint.merchant_id = tenant.merchantId;
    endpoint.mode = tenant.mode;
    return this.dataSource.manager.save(WebhookEndpointEntity, endpoint);
  }

  findById(tenant: Tenant, endpointId: string): Promise<WebhookEndpointEntity | null> {
    return this.dataSource.manager.findOne(WebhookEndpointEntity, {
      where: { id: endpointId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /** Enabled endpoints of the tenant subscribed to this type, read in the publishing transaction. */
  findSubscribed(manager: EntityManager, tenant: Tenant, type: string): Promise<WebhookEndpointEntity[]> {
    return manager
      .createQueryBuilder(WebhookEndpointEntity, 'endpoint')
      .where('endpoint.merchant_id = :merchantId AND endpoint.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .andWhere('endpoint.disabled = false')
      .andWhere("(:type = ANY(endpoint.enabled_events) OR '*' = ANY(endpoint.enabled_events))", { type })
      .orderBy('endpoint.id')
      .getMany();
  }

  async list(tenant: Tenant, page: PageRequest): Promise<{ rows: WebhookEndpointEntity[]; total: number }> {
    const base = () =>
      this.dataSource.manager
        .createQueryBuilder(WebhookEndpointEntity, 'endpoint')
        .where('endpoint.merchant_id = :merchantId AND endpoint.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode });
    return fetchPageWithTotal(base, 'endpoint', page);
  }

  async delete(tenant: Tenant, endpointId: string): Promise<void> {
    await this.dataSource.manager.delete(WebhookEndpointEntity, { id: endpointId, merchant_id: tenant.merchantId, mode: tenant.mode });
  }

  /** A 410 Gone answer turns the endpoint off until its owner turns it back on. */
  async disableAsGone(tenant: Tenant, endpointId: string): Promise<void> {
    await this.dataSource.manager.update(
      WebhookEndpointEntity,
      { id: endpointId, merchant_id: tenant.merchantId, mode: tenant.mode },
      { disabled: true, disabled_reason: 'endpoint_gone' },
    );
  }
}
