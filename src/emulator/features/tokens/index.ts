/** API tokens: made, listed and deleted here, accepted as HTTP Basic credentials by the kernel. */
import type { Feature } from '../../kernel/feature.js';
import { tokenRoutes } from './routes.js';
import { apiTokens, tokenCredentials } from './tokens.js';

export const tokensFeature: Feature = {
  name: 'tokens',
  routes: tokenRoutes,
  tables: [apiTokens],
  basicCredentials: tokenCredentials,
};
