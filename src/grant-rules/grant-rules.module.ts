import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { GrantRulesController } from './grant-rules.controller';
import { GrantRulesRepository } from './grant-rules.repository';
import { GrantRulesService } from './grant-rules.service';

/**
 * Grant rules (DESIGN §10): their routes, and the lookup the entitlements module makes inside
 * every grant (it imports this module; this one knows nothing of entitlements).
 */
@Module({
  imports: [ProductsModule],
  controllers: [GrantRulesController],
  providers: [GrantRulesRepository, GrantRulesService],
  exports: [GrantRulesService],
})
export class GrantRulesModule {}
