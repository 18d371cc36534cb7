import { DEMO_SEED_ACTOR, systemAudit } from './request-audit';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { DemoCredentials } from '../logging/startup-summary';
import { ApiKeysService } from './api-keys.service';
import { DASHBOARD_USER_INVITER, DashboardUserInviter } from './dashboard-session-lookup';
import { MerchantsService } from './merchants.service';

/**
 * First start of an empty embedded database: a demo merchant and one test key with every scope,
 * so `npm start` is usable at once. Never with DATABASE_URL set. main.ts calls it once the server
 * listens and prints the key in its summary: a start that fails (port busy) creates nothing, and
 * the next start makes the demo merchant and shows its key.
 */
@Injectable()
export class DemoMerchantSeeder {
  constructor(
    private readonly config: AppConfig,
    private readonly merchants: MerchantsService,
    private readonly apiKeys: ApiKeysService,
    @Optional() @Inject(DASHBOARD_USER_INVITER) private readonly dashboardUsers: DashboardUserInviter | null = null,
  ) {}

  /** The demo merchant's id and key when this call created them, else null. */
  async seed(): Promise<DemoCredentials | null> {
    if (!this.config.embeddedDatabase || this.config.skipDemoSeed) return null;
    if ((await this.merchants.count()) > 0) return null;
    const audit = systemAudit('demo.seed', DEMO_SEED_ACTOR);
    const merchant = await this.merchants.create('Demo merchant', 'free', audit);
    const key = await this.apiKeys.create(merchant.id, { mode: 'test', scopes: ['*'], name: 'demo key' }, audit);
    const user = this.config.dashboardEnabled ? await this.dashboardUsers?.create(merchant.id, 'demo@example.com', {}, audit) : undefined;
    return { merchantId: merchant.id, key: key.key, dashboard: user ? { email: user.email, setupUrl: user.setup_url } : null };
  }
}
