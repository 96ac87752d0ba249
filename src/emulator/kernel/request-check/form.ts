/**
 * A multipart form's parts against its operation's form schema, as a JSON body's fields are
 * checked. A part's value is its content, whether it came as text or as a file (a filename is the
 * part's metadata, not its value); a part the description declares as a file (`format: binary`) is
 * judged by presence only, its content being the handler's to judge. Whether a part must come as a
 * file (a document needs its name) is the handler's rule too.
 */
import type { FieldError } from '../../../errors.js';
import { readForm } from '../multipart.js';
import type { Req } from '../router.js';
import type { GeneratedValidator } from './generated/operations.js';
import { fieldErrors } from './refusal.js';

export async function formErrors(
  validate: GeneratedValidator,
  files: readonly string[],
  req: Req,
): Promise<FieldError[]> {
  const form = await readForm(req);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form.text)) values[name] = files.includes(name) ? '' : value;
  for (const [name, file] of Object.entries(form.files)) values[name] = files.includes(name) ? '' : await file.text();
  return validate(values) ? [] : fieldErrors(validate.errors ?? [], { prefix: '' });
}
