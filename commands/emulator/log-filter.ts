/** `svc emulator logs` filters: --status (`404`, `4xx`) and --path (a glob: `*` any run of characters). */
import { UsageError } from '../../src/errors.js';

export interface LoggedRequestLine {
  seq: number;
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  credential: string;
  requestId?: string;
}

export type RequestFilter = (line: LoggedRequestLine) => boolean;

export function requestFilter(status: string | undefined, path: string | undefined): RequestFilter {
  const problems = [];
  let statusTest: (code: number) => boolean = () => true;
  if (status !== undefined) {
    const m = /^([1-5])(xx|\d\d)$/i.exec(status.trim());
    if (m) {
      const [, first, rest] = m;
      statusTest =
        rest!.toLowerCase() === 'xx' ? (c) => Math.floor(c / 100) === Number(first) : (c) => c === Number(status);
    } else
      problems.push({ input: '--status', message: `--status ${JSON.stringify(status)} is not a status code or class` });
  }
  let pathTest: (p: string) => boolean = () => true;
  if (path !== undefined) {
    if (path === '') problems.push({ input: '--path', message: '--path is empty' });
    const pattern = new RegExp(
      `^${path
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    pathTest = (p) => pattern.test(p);
  }
  if (problems.length > 0)
    throw new UsageError(problems.map((p) => p.message).join('; '), {
      input: problems[0]!.input,
      problems,
      hint: 'Use --status 404 or --status 4xx, and --path with * for any characters: --path "/customers*".',
    });
  return (line) => statusTest(line.status) && pathTest(line.path);
}

/** One request as a line of the terminal log. */
export function formatRequestLine(line: LoggedRequestLine): string {
  const group = line.requestId ? `  [${line.requestId}]` : '';
  return `${line.time}  ${line.method.padEnd(6)} ${line.status}  ${line.path}  ${line.durationMs}ms  ${line.credential}${group}`;
}
