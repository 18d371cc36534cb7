import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { Tenant } from '../database/tenant';
import { DOMAIN_EVENT } from '../database/domain-event';
import { DomainEvents } from '../database/transaction';
import { OutboxEntry, OutboxRepository } from './outbox.repository';

/**
 * Writes each domain event into the outbox, and queues its deliveries to the subscribed
 * endpoints, in the publishing transaction: all commit or roll back with the change.
 */
@Injectable()
export class OutboxListener {
  constructor(private readonly outbox: OutboxRepository) {}

  @OnEvent(DOMAIN_EVENT, { promisify: true, suppressErrors: false })
  record(published: DomainEvents): Promise<void> {
    // Two parts per tenant (a transaction nearly always has one), each in publishing order.
    const byTenant = new Map<string, { tenant: Tenant; entries: OutboxEntry[] }>();
    for (const event of published.events) {
      const key = `${event.tenant.merchantId}:${event.tenant.mode}`;
      const group = byTenant.get(key) ?? { tenant: event.tenant, entries: [] };
      group.entries.push({ type: event.type, object: event.object });
      byTenant.set(key, group);
    }
    for (const { tenant, entries } of byTenant.values()) {
      for (const part of this.outbox.recordParts(tenant, entries, published.combined.parts.length)) published.combined.add(part);
    }
    return Promise.resolve();
  }
}
