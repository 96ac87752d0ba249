// The emulator's request validators, generated from the service's public API description at build
// time (.ci/build.mjs runs this first; so does the test suite's global setup, through the build).
//
//   node .ci/request-validators.mjs [--force]
//
// Reads the committed digest test/contract/api-schema.json (regenerate it with
// test/contract/generate-schema.mjs) and writes, in src/emulator/kernel/request-check/generated/
// (not committed; their types are the committed operations.d.ts there): Ajv's standalone code,
// one CommonJS module per operation (opN.cjs; operations sharing a large schema share one) with
// the validators of its path parameters, its query, its headers and its JSON body (or its multipart
// form's parts), and operations.js, the table the kernel reads
// (src/emulator/kernel/request-check/), naming each operation's module. Nothing is compiled when
// the emulator starts, and a module is read only when its operation's first request arrives. The
// output starts with a hash of its inputs and is left alone while they are unchanged, so a build
// that changed nothing here costs a file read.
//
// The description as the validators see it, changed in two ways (both documented in
// src/emulator/README.md "Request validation"):
// - A oneOf with a discriminator checks the tag (required, one of the mapped values) and then only
//   the branch the tag selects, so a refusal names that branch's fields, not every branch's.
// - What the description says only in prose (request-check/schema-changes.json, each change with
//   its reason): country codes are ISO 3166-1 alpha-2; a per-transaction scaFactor is not TOTP.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIGEST = join(root, 'test', 'contract', 'api-schema.json');
const HERE = join(root, 'src', 'emulator', 'kernel', 'request-check');
const CHANGES = join(HERE, 'schema-changes.json');
const OUT = join(HERE, 'generated', 'operations.js');
const SELF = fileURLToPath(import.meta.url);
const AJV_VERSION = JSON.parse(readFileSync(join(root, 'node_modules', 'ajv', 'package.json'), 'utf8')).version;
/** The formats the emulator enforces (kernel/request-check/formats.ts); the description's others are size hints. */
const ENFORCED_FORMATS = ['date', 'date-time', 'email', 'uri', 'uuid', 'iso3166-1-alpha-2'];
const IGNORED_FORMATS = ['int32', 'int64', 'float', 'double', 'binary'];
const SCHEMAS = '#/components/schemas/';

const inputs = [readFileSync(DIGEST), readFileSync(CHANGES), readFileSync(SELF), AJV_VERSION];
const hash = createHash('sha256');
for (const input of inputs) hash.update(input);
const stamp = `// request-validators ${hash.digest('hex')}`;
if (!process.argv.includes('--force') && existsSync(OUT) && readFileSync(OUT, 'utf8').startsWith(stamp)) process.exit(0);

const facts = JSON.parse(readFileSync(DIGEST, 'utf8'));
const changes = JSON.parse(readFileSync(CHANGES, 'utf8'));

/** A pointer's node in `doc` (`#/components/schemas/X/properties/y`). */
function at(doc, pointer) {
  return pointer
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], doc);
}

/** Changes to single schemas, applied in place: each sets (or, with `null`, removes) a key. */
for (const o of changes.overrides) {
  const node = at(facts, o.at);
  if (!node || typeof node !== 'object') throw new Error(`schema-changes.json: nothing at ${o.at}`);
  for (const [key, value] of Object.entries(o.set ?? {})) {
    if (value === null) delete node[key];
    else node[key] = value;
  }
}

/** Country codes: the named string properties (or their items) and query parameters take ISO 3166-1 alpha-2. */
const COUNTRY = { format: 'iso3166-1-alpha-2' };
function markCountries(node) {
  if (Array.isArray(node)) return node.forEach(markCountries);
  if (node === null || typeof node !== 'object') return;
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    if (!changes.countryCodes.properties.includes(name)) continue;
    const target = property?.type === 'array' ? property.items : property;
    if (target?.type === 'string' && !target.format) Object.assign(target, COUNTRY);
  }
  for (const value of Object.values(node)) markCountries(value);
}
markCountries(facts.components.schemas);
for (const op of Object.values(facts.operations)) {
  markCountries(op.requestBody);
  for (const p of op.parameters) {
    if (p.in === 'query' && changes.countryCodes.queryParameters.includes(p.name) && p.schema.type === 'string')
      Object.assign(p.schema, COUNTRY);
  }
}

/** A discriminated oneOf as: the tag (required, one of the mapped values), then the selected branch only. */
function discriminate(node) {
  if (Array.isArray(node)) return node.map(discriminate);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) out[key] = discriminate(value);
  if (!out.discriminator || !out.oneOf) return out;
  const { propertyName, mapping } = out.discriminator;
  delete out.discriminator;
  delete out.oneOf;
  const tags = Object.keys(mapping);
  const tag = { type: 'object', required: [propertyName], properties: { [propertyName]: { enum: tags } } };
  const branches = tags.map((value) => ({
    if: { properties: { [propertyName]: { const: value } }, required: [propertyName] },
    then: { $ref: mapping[value] },
  }));
  return { ...out, allOf: [...(out.allOf ?? []), tag, ...branches] };
}

const doc = discriminate(facts);
const DOC_ID = doc.$id;
const ref = (pointer) => ({ $ref: `${DOC_ID}#${pointer}` });
const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** One Ajv for bodies (types as sent) and one for parameters (strings, coerced to their declared type). */
function makeAjv(coerce) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    coerceTypes: coerce ? 'array' : false,
    messages: false,
    inlineRefs: false,
    code: { source: true, esm: true, lines: false, optimize: true, formats: _`FORMATS` },
  });
  // Placeholders: the generated code calls FORMATS[name] from formats.ts, never these.
  for (const f of ENFORCED_FORMATS) ajv.addFormat(f, () => true);
  for (const f of IGNORED_FORMATS) ajv.addFormat(f, true);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  return ajv;
}
const bodies = makeAjv(false);
const params = makeAjv(true);

const operations = {};
/** Per operation: the ids of its validators in `bodies` and in `params`, by where they apply. */
const exportsOf = {};
let n = 0;
for (const [key, op] of Object.entries(doc.operations)) {
  const entry = {};
  const ids = { body: {}, params: {} };
  const base = `/operations/${escape(key)}`;
  for (const where of ['path', 'query', 'header']) {
    const list = op.parameters.map((p, i) => ({ ...p, i })).filter((p) => p.in === where);
    if (list.length === 0) continue;
    // Header names are matched in lower case (node gives them so); the refusal names them as declared.
    const name = (p) => (where === 'header' ? p.name.toLowerCase() : p.name);
    const id = `${where}${n}`;
    params.addSchema({
      $id: id,
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [name(p), ref(`${base}/parameters/${p.i}/schema`)])),
      required: list.filter((p) => p.required).map(name),
    });
    ids.params[where] = id;
    entry[where] = { names: list.map((p) => p.name), arrays: list.filter((p) => isArray(p.schema)).map((p) => p.name) };
  }
  const json = op.requestBody?.content?.['application/json'];
  if (json) {
    const id = `body${n}`;
    bodies.addSchema({ $id: id, ...ref(`${base}/requestBody/content/application~1json`) });
    ids.body.body = id;
    entry.body = { json: true, required: op.requestBody.required };
  } else if (op.requestBody) {
    entry.body = { json: false, contentTypes: Object.keys(op.requestBody.content ?? {}), required: op.requestBody.required };
    // A multipart form's parts are checked like a JSON body's fields, its file parts by presence
    // only; a form with nothing but files (the bulk CSV upload, whose problems the description
    // reports in the job) has no text to check and gets no validator.
    const form = op.requestBody.content?.['multipart/form-data'];
    const parts = form ? propertiesOf(form) : {};
    const files = Object.keys(parts).filter((name) => parts[name]?.format === 'binary');
    if (Object.keys(parts).length > files.length) {
      const id = `form${n}`;
      bodies.addSchema({ $id: id, ...ref(`${base}/requestBody/content/multipart~1form-data`) });
      ids.body.form = id;
      entry.body.form = { files };
    }
  }
  if (Object.keys(ids.body).length + Object.keys(ids.params).length > 0) entry.module = `op${n}.cjs`;
  exportsOf[key] = ids;
  operations[key] = entry;
  n++;
}

/** The names of the component schemas `node` refers to. */
function refsIn(node, out = new Set()) {
  if (Array.isArray(node)) for (const item of node) refsIn(item, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMAS)) out.add(value.slice(SCHEMAS.length));
      else refsIn(value, out);
    }
  }
  return out;
}

/** The component schemas `names` reach, themselves included. */
function closure(names) {
  const seen = new Set();
  const stack = [...names];
  while (stack.length > 0) {
    const name = stack.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...refsIn(doc.components.schemas[name]));
  }
  return seen;
}

/**
 * Operations whose bodies reach the same large component schema (more than SHARED_TEXT characters of
 * schema with what it refers to) share one module, so its code is generated and read once: the
 * three external-account creates (customer, platform, agent) reach ExternalAccountCreateInfoOneOf,
 * whose 40-odd account types are the largest generated code. A smaller shared part is left in each
 * operation's own module, so that a request still reads little beyond its own operation's code.
 */
const SHARED_TEXT = 20_000;
const sizeOf = new Map();
const textOf = (name) => {
  if (!sizeOf.has(name)) {
    let size = 0;
    for (const n of closure([name])) size += JSON.stringify(doc.components.schemas[n]).length;
    sizeOf.set(name, size);
  }
  return sizeOf.get(name);
};
/** The module of the first operation whose body reached each large schema; later ones join it. */
const moduleOfLarge = new Map();
for (const [key, op] of Object.entries(doc.operations)) {
  const json = op.requestBody?.content?.['application/json'];
  if (!json) continue;
  const large = [...closure(refsIn(json))].filter((name) => textOf(name) > SHARED_TEXT);
  const shared = large.map((name) => moduleOfLarge.get(name)).find((m) => m !== undefined);
  if (shared) operations[key].module = shared;
  for (const name of large) if (!moduleOfLarge.has(name)) moduleOfLarge.set(name, operations[key].module);
}

/** The properties a schema declares, through its $refs and allOf parts, each resolved. */
function propertiesOf(schema) {
  const s = schema?.$ref?.startsWith(SCHEMAS) ? doc.components.schemas[schema.$ref.slice(SCHEMAS.length)] : schema;
  const own = Object.fromEntries(
    Object.entries(s?.properties ?? {}).map(([name, p]) => [
      name,
      p?.$ref?.startsWith(SCHEMAS) ? doc.components.schemas[p.$ref.slice(SCHEMAS.length)] : p,
    ]),
  );
  return Object.assign({}, ...(s?.allOf ?? []).map(propertiesOf), own);
}

function isArray(schema) {
  const s = schema?.$ref?.startsWith(SCHEMAS) ? doc.components.schemas[schema.$ref.slice(SCHEMAS.length)] : schema;
  return s?.type === 'array';
}

/**
 * Ajv's standalone code requires its runtime helpers by name; the emulator has its own
 * (request-check/runtime.ts), passed in when a module loads, so the modules hold no part of Ajv.
 * A helper not listed here fails the build.
 */
const RUNTIME = { ucs2length: 'characterCount' };
function asCode(code, prefix) {
  const body = code
    .replace(/^"use strict";/, '')
    .replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/g, (_m, name) => {
      if (!RUNTIME[name]) throw new Error(`the validators need Ajv's runtime helper ${name}: add it to runtime.ts and RUNTIME`);
      return RUNTIME[name];
    })
    // Each part's validators are named validate<N>; the body and parameter parts' names must not clash.
    .replace(/\b(validate|schema|func|pattern|formats)(\d+)\b/g, `${prefix}_$1$2`)
    .replace(/export const ([a-z]+\d+) =/g, 'const $1 =');
  if (/\brequire\(/.test(body)) throw new Error(`standalone code still requires a module: ${body.match(/require\([^)]*\)/)[0]}`);
  return body;
}

/**
 * One CommonJS module per operation (or per group of operations sharing a large schema), read when
 * its first request arrives (request-check/load.ts), so starting the emulator reads none of them and
 * a request reads only its own operation's code. A module is a function of the format checks and
 * runtime helpers that returns each of its operations' validators, by operation.
 */
function operationModule(keys) {
  const parts = [];
  for (const [ajv, prefix, part] of [
    [bodies, 'b', 'body'],
    [params, 'p', 'params'],
  ]) {
    const ids = keys.flatMap((key) => Object.values(exportsOf[key][part]));
    if (ids.length === 0) continue;
    parts.push(asCode(standaloneCode(ajv, Object.fromEntries(ids.map((id) => [id, id]))), prefix));
  }
  const returned = keys.map((key) => {
    const ids = { ...exportsOf[key].body, ...exportsOf[key].params };
    return `${JSON.stringify(key)}: { ${Object.entries(ids)
      .map(([where, id]) => `${where}: ${id}`)
      .join(', ')} }`;
  });
  return `${stamp}
// Generated by .ci/request-validators.mjs from test/contract/api-schema.json: do not edit.
module.exports = function validators(FORMATS, ${Object.values(RUNTIME).join(', ')}) {
${parts.join('\n')}
return { ${returned.join(', ')} };
};
`;
}

const DIR = dirname(OUT);
mkdirSync(DIR, { recursive: true });
// Modules of an earlier description go, so the folder holds exactly what OPERATIONS names.
for (const file of readdirSync(DIR)) if (/^op\d+\.cjs$/.test(file)) rmSync(join(DIR, file));
let bytes = 0;
const keysOf = new Map();
for (const [key, entry] of Object.entries(operations)) {
  if (entry.module) keysOf.set(entry.module, [...(keysOf.get(entry.module) ?? []), key]);
}
for (const [module, keys] of keysOf) {
  const text = operationModule(keys);
  bytes += text.length;
  writeFileSync(join(DIR, module), text);
}
// Written last: its stamp says every module above is current.
writeFileSync(
  OUT,
  `${stamp}
// Generated by .ci/request-validators.mjs from test/contract/api-schema.json: do not edit.
// Each operation's validators are in the module it names (opN.cjs beside this file).
export const OPERATIONS = ${JSON.stringify(operations)};
`,
);
console.log(
  `request validators: ${Object.keys(operations).length} operations, ${(bytes / 1024).toFixed(0)} kB in ${keysOf.size} modules (${DIR.slice(root.length + 1)})`,
);
