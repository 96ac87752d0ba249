/**
 * The contract recorder: with SVC_EMULATOR_EXCHANGE_LOG=<folder> in the environment, every HTTP
 * exchange the emulator answers and every webhook body it makes is appended, one JSON line each, to
 * `<folder>/<pid>.jsonl`; the test suite (test/contract/) validates them against the service's
 * public API description after the run. Off (the default), it costs one undefined check a request.
 * Sync appends on purpose: records of a process killed mid-test are still on disk.
 */
import { appendFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Reply } from './router.js';

const EXCHANGE_LOG_ENV = 'SVC_EMULATOR_EXCHANGE_LOG';

/** Bodies bigger than this are recorded by size only (an upload, a body-limit test). */
const MAX_RECORDED_BYTES = 256 * 1024;

/** Whether the request passed the emulator's schema check (kernel/request-check/) or was refused by it. */
export type SchemaVerdict = 'passed' | 'refused';

export interface ExchangeRecorder {
  http(req: IncomingMessage, raw: Buffer | undefined, reply: Reply, schema?: SchemaVerdict): void;
  webhook(body: string): void;
}

function recorderAt(folder: string): ExchangeRecorder {
  const file = join(folder, `${process.pid}.jsonl`);
  const write = (entry: unknown) => appendFileSync(file, `${JSON.stringify(entry)}\n`);
  return {
    http(req, raw, reply, schema) {
      const requestType = req.headers['content-type'];
      write({
        kind: 'http',
        method: req.method,
        url: req.url,
        userAgent: req.headers['user-agent'],
        scheme: (req.headers.authorization ?? '').split(' ', 1)[0]!.toLowerCase() || undefined,
        requestType,
        request: raw && raw.length > 0 && raw.length <= MAX_RECORDED_BYTES ? raw.toString('utf8') : undefined,
        requestBytes: raw?.length ?? 0,
        status: reply.status,
        responseType: reply.text !== undefined ? reply.headers?.['content-type'] : 'application/json',
        response: reply.text === undefined && reply.status !== 204 ? reply.body : undefined,
        schema,
      });
    },
    webhook(body) {
      write({ kind: 'webhook', body });
    },
  };
}

const folder = process.env[EXCHANGE_LOG_ENV];

/** The recorder when the environment asks for one, else undefined. */
export const exchangeRecorder: ExchangeRecorder | undefined = folder ? recorderAt(folder) : undefined;
