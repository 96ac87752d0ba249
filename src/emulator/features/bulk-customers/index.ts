/**
 * Bulk customer import: a CSV upload (routes.ts, csv.ts) becomes a job that creates its customers
 * on the emulator's clock (jobs.ts, rows.ts). A job still running when the emulator stopped goes
 * on after a restart with --state.
 */
import type { Feature } from '../../kernel/feature.js';
import { bulkJobs, scheduleStep } from './jobs.js';
import { bulkCustomerRoutes } from './routes.js';

export const bulkCustomersFeature: Feature = {
  name: 'bulk-customers',
  routes: bulkCustomerRoutes,
  tables: [bulkJobs],
  resume(emu) {
    for (const job of emu.table(bulkJobs).values())
      if (job.status === 'PENDING' || job.status === 'PROCESSING') scheduleStep(emu, job.id);
  },
};
