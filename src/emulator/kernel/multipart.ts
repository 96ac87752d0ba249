/**
 * Reads a `multipart/form-data` body with the platform's own parser (Response#formData of Node's
 * fetch), rather than by hand: boundaries, quoting and encodings are its job. Text parts become a
 * plain object for the kernel's Fields; file parts are returned apart, so a file sent where text
 * is expected (or text where the file is expected) is a field error, not a crash.
 */
import { invalidInput } from './errors.js';
import type { Req } from './router.js';

const MULTIPART = /^multipart\/form-data\s*;/i;

export interface FormParts {
  /** The first value of each text part, by name. */
  text: Record<string, string>;
  /** The first file of each file part, by name. */
  files: Record<string, File>;
  /** Names sent as a file although a text value was expected, or the reverse. */
  names: Set<string>;
}

/** Each request's form, parsed once: the schema check reads it before the handler does. */
const parsed = new WeakMap<Req, Promise<FormParts>>();

export function readForm(req: Req): Promise<FormParts> {
  let form = parsed.get(req);
  if (!form) {
    form = parse(req);
    parsed.set(req, form);
  }
  return form;
}

async function parse(req: Req): Promise<FormParts> {
  const type = req.header('content-type');
  const bodyError = (message: string) =>
    invalidInput([{ field: 'body', constraint: { format: 'multipart/form-data' }, message }], message);
  if (!type || !MULTIPART.test(type))
    throw bodyError(`Content-Type must be multipart/form-data with a boundary, not ${type ?? 'absent'}`);
  let form: FormData;
  try {
    form = await new Response(req.raw, { headers: { 'content-type': type } }).formData();
  } catch (error) {
    throw bodyError(`The body is not valid multipart/form-data: ${(error as Error).message}`);
  }
  const parts: FormParts = { text: {}, files: {}, names: new Set() };
  for (const [name, value] of form) {
    if (parts.names.has(name)) continue; // the first part of a name counts
    parts.names.add(name);
    if (typeof value === 'string') parts.text[name] = value;
    else parts.files[name] = value;
  }
  return parts;
}
