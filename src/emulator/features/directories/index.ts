/** Read-only directories: payment institutions (discoveries), UMA providers, VASPs. */
import type { Feature } from '../../kernel/feature.js';
import { directoryRoutes } from './routes.js';

export const directoriesFeature: Feature = { name: 'directories', routes: directoryRoutes };
