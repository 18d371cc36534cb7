import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { operationFor } from '../database/operation';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { LicenseKeysService } from '../licenses/license-keys.service';
import { LicensesService } from '../licenses/licenses.service';
import { ProductsService } from '../products/products.service';
import { DEMO_ACTIVATION, DEMO_BUNDLE_CONTENTS, DEMO_GRANTS, DEMO_PRODUCTS } from './demo-catalogue';

/**
 * Creates the demo catalogue (demo-catalogue.ts) through the services the API uses, so each record
 * is what the API would have made and each change publishes its event, like any other.
 */
@Injectable()
export class DemoCatalogueSeeder {
  constructor(
    private readonly products: ProductsService,
    private readonly entitlements: EntitlementsService,
    private readonly licenseKeys: LicenseKeysService,
    private readonly licenses: LicensesService,
  ) {}

  /** The store ids of the products created, in order. */
  async seed(tenant: Tenant): Promise<string[]> {
    const operation = operationFor(tenant);
    const ids = new Map<string, string>();
    const { starterBundle, ...included } = DEMO_PRODUCTS;
    for (const [key, product] of Object.entries(included)) ids.set(key, (await this.products.create(operation, product)).id);
    await this.products.create(operation, { ...starterBundle, included_product_ids: DEMO_BUNDLE_CONTENTS.map((key) => ids.get(key) as string) });
    for (const grant of DEMO_GRANTS) {
      const granted = await this.entitlements.create(operation, grant);
      if (grant.store_product_id === DEMO_PRODUCTS.desktopApp.store_product_id) await this.activateLicense(tenant, granted.id);
    }
    return Object.values(DEMO_PRODUCTS).map((product) => product.store_product_id);
  }

  /** The key the grant issued, activated on the demo device through the app's own route logic (loopback as its address). */
  private async activateLicense(tenant: Tenant, entitlementId: string): Promise<void> {
    const [license] = (await this.licenseKeys.list(tenant, { entitlement_id: entitlementId })).items;
    await this.licenses.activate('127.0.0.1', { key: license.key, ...DEMO_ACTIVATION }, () => undefined);
  }
}
