/** The event log's emulator-only endpoints: list logged webhook events and replay them. */
import type { Feature } from '../../kernel/feature.js';
import { eventLogRoutes } from './routes.js';

export const webhookEventsFeature: Feature = { name: 'webhook-events', routes: eventLogRoutes };
