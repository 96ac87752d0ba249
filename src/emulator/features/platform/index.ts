/** Platform configuration: the webhook endpoint (GET/PATCH /config) and the sandbox TEST webhook. */
import type { Feature } from '../../kernel/feature.js';
import { webhookConfigRoutes } from './webhook-config.js';

export const platformFeature: Feature = { name: 'platform', routes: webhookConfigRoutes };
