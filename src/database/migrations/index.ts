// Written by scripts/migration-generate.ts: every migration, in order.
import { Initial1795353159306 } from './1795353159306-Initial';
import { AddCustomersAndEntitlements1795353422441 } from './1795353422441-AddCustomersAndEntitlements';
import { FilesAndUsage1795353435622 } from './1795353435622-FilesAndUsage';
import { WebhookEndpointsAndDeliveries1795353493659 } from './1795353493659-WebhookEndpointsAndDeliveries';
import { AddIdempotencyKeys1795353537714 } from './1795353537714-AddIdempotencyKeys';
import { IdempotencyResponseBodyJson1795353865020 } from './1795353865020-IdempotencyResponseBodyJson';
import { OneOwnerPerTable1795461964949 } from './1795461964949-OneOwnerPerTable';
import { WebhookEndpointPrivateUrlDecision1795462246317 } from './1795462246317-WebhookEndpointPrivateUrlDecision';
import { DashboardUsersAndSessions1795472890463 } from './1795472890463-DashboardUsersAndSessions';
import { BundleItemsAndEntitlementParents1795472997159 } from './1795472997159-BundleItemsAndEntitlementParents';
import { AddSubscriptions1795473147108 } from './1795473147108-AddSubscriptions';
import { GrantRules1795473669788 } from './1795473669788-GrantRules';
import { OrdersAndLineItems1795474086797 } from './1795474086797-OrdersAndLineItems';
import { AddEntitlementImports1795475938186 } from './1795475938186-AddEntitlementImports';
import { WebhookClaimIndexes1795602684543 } from './1795602684543-WebhookClaimIndexes';
import { DashboardSessionsWithoutMode1795727035448 } from './1795727035448-DashboardSessionsWithoutMode';
import { ClientAddressAndCredentialChecksums1795727266527 } from './1795727266527-ClientAddressAndCredentialChecksums';
import { CustomerStoreIdPrefixIndex1795727530603 } from './1795727530603-CustomerStoreIdPrefixIndex';
import { EventObjectIdAndListIndexes1795728426160 } from './1795728426160-EventObjectIdAndListIndexes';
import { PruneIndexes1795728914022 } from './1795728914022-PruneIndexes';
import { WebhookDeliveriesPerObject1795730000000 } from './1795730000000-WebhookDeliveriesPerObject';
import { DashboardUserLastSignIn1795732107119 } from './1795732107119-DashboardUserLastSignIn';
import { AddTestClocks1795739565183 } from './1795739565183-AddTestClocks';
import { DownloadsInOneStatement1795740000000 } from './1795740000000-DownloadsInOneStatement';
import { OverageBilling1795917199180 } from './1795917199180-OverageBilling';

export const MIGRATIONS = [Initial1795353159306, AddCustomersAndEntitlements1795353422441, FilesAndUsage1795353435622, WebhookEndpointsAndDeliveries1795353493659, AddIdempotencyKeys1795353537714, IdempotencyResponseBodyJson1795353865020, OneOwnerPerTable1795461964949, WebhookEndpointPrivateUrlDecision1795462246317, DashboardUsersAndSessions1795472890463, BundleItemsAndEntitlementParents1795472997159, AddSubscriptions1795473147108, GrantRules1795473669788, OrdersAndLineItems1795474086797, AddEntitlementImports1795475938186, WebhookClaimIndexes1795602684543, DashboardSessionsWithoutMode1795727035448, ClientAddressAndCredentialChecksums1795727266527, CustomerStoreIdPrefixIndex1795727530603, EventObjectIdAndListIndexes1795728426160, PruneIndexes1795728914022, WebhookDeliveriesPerObject1795730000000, DashboardUserLastSignIn1795732107119, AddTestClocks1795739565183, DownloadsInOneStatement1795740000000, OverageBilling1795917199180];
