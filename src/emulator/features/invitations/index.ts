/** UMA invitations (invitations.ts: records and status; routes.ts: create, get, claim, cancel, the invitee's page). */
import type { Feature } from '../../kernel/feature.js';
import { invitations } from './invitations.js';
import { invitationRoutes } from './routes.js';

export const invitationsFeature: Feature = { name: 'invitations', routes: invitationRoutes, tables: [invitations] };
