import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { operationFor } from '../database/operation';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { ProductsService } from '../products/products.service';
import { DEMO_BUNDLE_CONTENTS, DEMO_GRANTS, DEMO_PRODUCTS } from './demo-catalogue';

/**
 * Creates the demo catalogue (demo-catalogue.ts) through the services the API uses, so each record
 * is what the API would have made and each change publishes its event, like any other.
 */
@Injectable()
export class DemoCatalogueSeeder {
  constructor(
    private readonly products: ProductsService,
    private readonly entitlements: EntitlementsService,
  ) {}

  /** The store ids of the products created, in order. */
  async seed(tenant: Tenant): Promise<string[]> {
    const operation = operationFor(tenant);
    const ids = new Map<string, string>();
    const { starterBundle, ...included } = DEMO_PRODUCTS;
    for (const [key, product] of Object.entries(included)) ids.set(key, (await this.products.create(operation, product)).id);
    await this.products.create(operation, { ...starterBundle, included_product_ids: DEMO_BUNDLE_CONTENTS.map((key) => ids.get(key) as string) });
    for (const grant of DEMO_GRANTS) await this.entitlements.create(operation, grant);
    return Object.values(DEMO_PRODUCTS).map((product) => product.store_product_id);
  }
}
