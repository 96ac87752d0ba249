/**
 * Everything `svc api` sends, checked before any request: method, path with query, headers, and
 * the body from -f/-F fields or --input. Files and stdin are read here (the core does no I/O).
 */
import { readFile } from 'node:fs/promises';
import type { Deps } from '../deps.js';
import { readAll } from '../input.js';
import { UsageError } from '../../src/errors.js';
import { buildFields, flattenToQuery, type FieldArg } from '../../src/api/fields.js';
import { idempotencyKey, normalizePath, parseHeaders, parseQuery, requireMethod } from '../../src/api/request.js';
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';

type ApiOptions = OptionsOf<typeof verbs.api>;

export interface RequestParts {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The Idempotency-Key sent, when one was asked for. */
  idempotencyKey?: string;
}

async function readFrom(source: string, flag: string, deps: Deps): Promise<string> {
  if (source === '-') return (await readAll(deps.io.stdin)).toString('utf8');
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${source} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, {
      input: flag,
    });
  }
}

export async function requestParts(opts: ApiOptions, deps: Deps): Promise<RequestParts> {
  const method = requireMethod(opts.method);
  const headers = parseHeaders(opts.header);
  const query = parseQuery(opts.query);
  const fields: FieldArg[] = [
    ...opts.rawField.map((text) => ({ kind: 'raw' as const, text })),
    ...opts.field.map((text) => ({ kind: 'typed' as const, text })),
  ];
  if (opts.input !== undefined && fields.length > 0) {
    throw new UsageError('Give the body either as -f/-F fields or as --input, not both.', {
      input: '--input',
      hint: 'Query parameters go in --query.',
    });
  }
  const stdinUsers = [
    opts.input === '-' ? '--input -' : '',
    ...opts.field.filter((f) => f.includes('=@-')).map(() => '-F …=@-'),
  ].filter(Boolean);
  if (stdinUsers.length > 1)
    throw new UsageError(`stdin can be read once; ${stdinUsers.join(' and ')} both ask for it.`, { input: '-F' });
  // Waiting for a terminal to send a body nobody is typing would look like a hang.
  if (stdinUsers.length > 0 && deps.io.stdinIsTTY) {
    throw new UsageError(
      `${stdinUsers[0]} reads the body from stdin, which is a terminal: pipe it in (… | svc api …) or name a file.`,
      { input: opts.input === '-' ? '--input' : '-F' },
    );
  }

  let body: string | undefined;
  if (opts.input !== undefined) body = await readFrom(opts.input, '--input', deps);
  else if (fields.length > 0) {
    const object = await buildFields(fields, (path) => readFrom(path, '-F', deps));
    // As gh does: a GET has no body, so its fields are query parameters.
    if (method === 'GET' || method === 'HEAD') query.push(...flattenToQuery(object));
    else body = JSON.stringify(object);
  }
  const key = idempotencyKey(opts.idempotencyKey);
  if (key !== undefined) headers['Idempotency-Key'] = key;
  return {
    method,
    path: normalizePath(opts.path, query),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(key ? { idempotencyKey: key } : {}),
  };
}
