/**
 * The parts of a recorded multipart/form-data body, read apart from the emulator's parser: each
 * name's content, whether sent as text or as a file (a filename is the part's metadata, not its
 * value). The first part of a name counts, as the emulator reads it. Undefined when the body is not
 * a form.
 */
export function formParts(body: string, contentType: string | undefined): Record<string, string> | undefined {
  const boundary = /^multipart\/form-data\s*;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return undefined;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const chunks = body.split(delimiter);
  // Before the first delimiter is the preamble; the last delimiter ends in `--`.
  if (chunks.length < 2 || !chunks[chunks.length - 1]!.startsWith('--')) return undefined;
  const parts: Record<string, string> = {};
  for (const chunk of chunks.slice(1, -1)) {
    const split = chunk.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const headers = chunk.slice(0, split);
    const name = /\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) return undefined;
    if (name in parts) continue;
    parts[name] = chunk.slice(split + 4).replace(/\r\n$/, '');
  }
  return parts;
}
