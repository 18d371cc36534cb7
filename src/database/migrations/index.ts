// Written by scripts/migration-generate.ts: every migration, in order.
import { Initial1795353159306 } from './1795353159306-Initial';
import { AddCustomersAndEntitlements1795353422441 } from './1795353422441-AddCustomersAndEntitlements';
import { FilesAndUsage1795353435622 } from './1795353435622-FilesAndUsage';
import { WebhookEndpointsAndDeliveries1795353493659 } from './1795353493659-WebhookEndpointsAndDeliveries';
import { AddIdempotencyKeys1795353537714 } from './1795353537714-AddIdempotencyKeys';
import { IdempotencyResponseBodyJson1795353865020 } from './1795353865020-IdempotencyResponseBodyJson';

export const MIGRATIONS = [Initial1795353159306, AddCustomersAndEntitlements1795353422441, FilesAndUsage1795353435622, WebhookEndpointsAndDeliveries1795353493659, AddIdempotencyKeys1795353537714, IdempotencyResponseBodyJson1795353865020];
