import { Module } from '@nestjs/common';
import { EntitlementsModule } from '../entitlements/entitlements.module';
import { LicensesModule } from '../licenses/licenses.module';
import { ProductsModule } from '../products/products.module';
import { DemoCatalogueSeeder } from './demo-catalogue.seeder';

/** The demo merchant's catalogue, seeded by main.ts beside the demo merchant (embedded first start only). */
@Module({
  imports: [ProductsModule, EntitlementsModule, LicensesModule],
  providers: [DemoCatalogueSeeder],
  exports: [DemoCatalogueSeeder],
})
export class DemoModule {}
