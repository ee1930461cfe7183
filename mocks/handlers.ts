/**
 * The mock backend: session calls plus handlers generated from every schema. Each call to `createHandlers`
 * can take its own database, so tests do not share rows. `base` is the API base the app calls: relative (same
 * origin) in a page, absolute under Node.
 */
import type { HttpHandler } from 'msw';
import { ENTITY_SCHEMAS } from '@web/core/schemas';
import { accessHandlers } from './accessHandlers';
import { customFieldHandlers } from './customFieldHandlers';
import { createMockDatabase, type MockDatabase } from './data';
import { entityHandlers } from './entityHandlers';
import { labsHandlers } from './labsHandlers';
import { logoHandlers } from './logoHandlers';
import { inventoryHandlers } from './inventoryHandlers';
import { packageHandlers } from './packageHandlers';
import { paymentHandlers } from './paymentHandlers';
import { resellerPricingHandlers } from './resellerPricingHandlers';
import { sessionHandlers } from './sessionHandlers';
import { subscriberHandlers } from './subscriberHandlers';

export function createHandlers(db: MockDatabase = createMockDatabase(), base = '/portal'): HttpHandler[] {
  return [
    ...sessionHandlers(db, base),
    ...accessHandlers(db, base),
    ...logoHandlers(db, base),
    ...labsHandlers(db, base),
    // Before the entity handlers: `/subscriber-info/daily-limit` is not the subscriber with id "daily-limit".
    ...subscriberHandlers(db, base),
    ...packageHandlers(db, base),
    ...inventoryHandlers(db, base),
    ...paymentHandlers(db, base),
    ...resellerPricingHandlers(db, base),
    // Before the entity handlers: `/custom-fields/applicable/subscriber` is not the definition with id "applicable".
    ...customFieldHandlers(db, base),
    ...entityHandlers(db, ENTITY_SCHEMAS, base),
  ];
}
