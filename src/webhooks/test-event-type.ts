import { EVENT_TYPES } from '../database/domain-event';

/** The type of a test send; never published, so no endpoint subscribes to it and the event log never holds it. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

/** What a delivery attempt can carry: every published type, and the test send's. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
