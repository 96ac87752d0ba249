/**
 * POST /customers/bulk/csv (multipart, the CSV in the `file` part) → 202 {jobId, status}, and GET
 * /customers/bulk/jobs/{jobId}. The description declares no 400 for the upload: whatever is wrong
 * with the file (no `file` part, not UTF-8, not CSV, a required column missing, no rows) is
 * reported where the description puts failures, in the job, which then FAILS.
 */
import { HttpError } from '../../kernel/errors.js';
import { readForm } from '../../kernel/multipart.js';
import type { Req, Route } from '../../kernel/router.js';
import { parseCsv } from './csv.js';
import { jobOr404, renderJob, startJob, type PendingRow } from './jobs.js';
import { REQUIRED_COLUMNS, type RowError } from './rows.js';

/** A file of this size holds some ten thousand customers, the most one job takes. */
const CSV_MAX_BYTES = 5 * 1024 * 1024;
const MAX_ROWS = 10_000;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const fileProblem = (message: string): RowError => ({
  correlationId: 'file',
  code: 'INVALID_INPUT',
  message,
  details: { errors: [{ field: 'file', message }] },
});

/** The rows of the upload, or why the file cannot be imported. */
async function readUpload(req: Req): Promise<{ rows: PendingRow[] } | { problem: RowError }> {
  let text: string;
  try {
    const form = await readForm(req);
    // A browser form sends a file part; `curl -F file=<customers.csv` sends the same bytes as text.
    const file = form.files.file;
    const given = file ? UTF8.decode(await file.arrayBuffer()) : form.text.file;
    if (given === undefined) return { problem: fileProblem('Send the CSV as the multipart part named file') };
    text = given;
  } catch (error) {
    if (error instanceof HttpError) return { problem: fileProblem(error.message) };
    if (error instanceof TypeError) return { problem: fileProblem('The file is not UTF-8 text') };
    throw error;
  }
  let table: string[][];
  try {
    table = parseCsv(text);
  } catch (error) {
    return { problem: fileProblem(`The file is not CSV: ${(error as Error).message}`) };
  }
  const header = (table[0] ?? []).map((name) => name.trim());
  const missing = REQUIRED_COLUMNS.filter((name) => !header.includes(name));
  if (missing.length > 0) return { problem: fileProblem(`The header row lacks the column(s) ${missing.join(', ')}`) };
  const repeated = header.filter((name, i) => name !== '' && header.indexOf(name) !== i);
  if (repeated.length > 0) return { problem: fileProblem(`The header row repeats ${repeated.join(', ')}`) };
  if (table.length < 2) return { problem: fileProblem('The file has a header but no customers') };
  if (table.length - 1 > MAX_ROWS)
    return { problem: fileProblem(`The file has ${table.length - 1} customers; one upload takes at most ${MAX_ROWS}`) };
  const rows = table.slice(1).map((cells, i) => ({
    row: i + 2,
    cells: Object.fromEntries(header.map((name, j) => [name, cells[j] ?? ''])),
  }));
  return { rows };
}

const upload: Route = {
  method: 'POST',
  path: '/customers/bulk/csv',
  permission: 'MANAGE',
  maxBodyBytes: CSV_MAX_BYTES,
  async handler(req, emu) {
    // As for POST /customers: a customer an agent made would not be its own.
    if (req.principal.kind === 'agent')
      throw new HttpError(403, 'FORBIDDEN', 'An agent token cannot create customers; use the platform credentials');
    const job = startJob(emu, await readUpload(req));
    return { status: 202, body: { jobId: job.id, status: job.status } };
  },
};

const get: Route = {
  method: 'GET',
  path: '/customers/bulk/jobs/:jobId',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: renderJob(jobOr404(emu, req.params.jobId!)) }),
};

export const bulkCustomerRoutes: Route[] = [upload, get];
