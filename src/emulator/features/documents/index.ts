/** Identity and business documents (documents.ts, routes.ts; multipart.ts reads the form). */
import type { Feature } from '../../kernel/feature.js';
import { documents } from './documents.js';
import { documentRoutes } from './routes.js';

export const documentsFeature: Feature = {
  name: 'documents',
  routes: documentRoutes,
  tables: [documents],
};
