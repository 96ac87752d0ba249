/**
 * Bulk customer import jobs. An upload is read at once (so a file that cannot be read fails its
 * job) and then imported on the emulator's clock: ROWS_PER_STEP rows every STEP_MS, PENDING until
 * the first step, PROCESSING until the last, then COMPLETED (however many rows failed) with
 * BULK_UPLOAD.COMPLETED. A file that is not a usable CSV makes the job FAILED with
 * BULK_UPLOAD.FAILED at its first step. The rows not yet imported are part of the job's record,
 * so a restart with --state carries on where it stopped.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { durableTable } from '../../kernel/tables.js';
import { importRow, type RowError } from './rows.js';

const STEP_MS = 1000;
const ROWS_PER_STEP = 100;

export interface PendingRow {
  /** The row's number in the file, the header being row 1. */
  row: number;
  cells: Record<string, string>;
}

export interface JobRec {
  id: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  total: number;
  processed: number;
  successful: number;
  failed: number;
  errors: RowError[];
  /** Rows still to import, in file order. */
  pending: PendingRow[];
  /** Why the whole file is refused (the job fails at its first step). */
  problem?: RowError;
  completedAt?: string;
}

export const bulkJobs = durableTable<JobRec>('bulkCustomerJobs', {
  id: 'string',
  status: 'string',
  total: 'number',
  processed: 'number',
  successful: 'number',
  failed: 'number',
  errors: 'array',
  pending: 'array',
  problem: 'object?',
  completedAt: 'string?',
});

/** The description's BulkCustomerImportJob. */
export function renderJob(job: JobRec): Record<string, unknown> {
  const { id, status, total, processed, successful, failed, errors, completedAt } = job;
  return {
    id,
    status,
    progress: { total, processed, successful, failed },
    errors,
    ...(completedAt !== undefined ? { completedAt } : {}),
  };
}

export function jobOr404(emu: EmulatorContext, id: string): JobRec {
  const job = emu.table(bulkJobs).get(id);
  if (!job) throw notFound('Bulk import job', id, 'BULK_UPLOAD_JOB_NOT_FOUND');
  return job;
}

/** A new job for these rows, or for a file refused for `problem`; its first step is scheduled. */
export function startJob(emu: EmulatorContext, input: { rows: PendingRow[] } | { problem: RowError }): JobRec {
  const rows = 'rows' in input ? input.rows : [];
  const job: JobRec = {
    id: newId('Job'),
    status: 'PENDING',
    total: rows.length,
    processed: 0,
    successful: 0,
    failed: 0,
    errors: [],
    pending: rows,
    ...('problem' in input ? { problem: input.problem } : {}),
  };
  emu.table(bulkJobs).set(job.id, job);
  scheduleStep(emu, job.id);
  return job;
}

export function scheduleStep(emu: EmulatorContext, id: string): void {
  emu.later(STEP_MS, () => step(emu, id));
}

function finish(emu: EmulatorContext, job: JobRec, status: 'COMPLETED' | 'FAILED'): void {
  job.status = status;
  job.completedAt = emu.iso();
  emu.outbox.emit(`BULK_UPLOAD.${status}`, renderJob(job));
}

function step(emu: EmulatorContext, id: string): void {
  const job = emu.table(bulkJobs).get(id);
  if (!job || job.status === 'COMPLETED' || job.status === 'FAILED') return;
  if (job.problem) {
    job.errors = [job.problem];
    delete job.problem;
    finish(emu, job, 'FAILED');
  } else {
    job.status = 'PROCESSING';
    for (const { row, cells } of job.pending.splice(0, ROWS_PER_STEP)) {
      const error = importRow(emu, cells, row);
      job.processed++;
      if (error) {
        job.failed++;
        job.errors.push(error);
      } else job.successful++;
    }
    if (job.pending.length === 0) finish(emu, job, 'COMPLETED');
    else scheduleStep(emu, id);
  }
  emu.table(bulkJobs).set(job.id, job);
}
