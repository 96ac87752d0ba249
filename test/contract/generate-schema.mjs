#!/usr/bin/env node
/**
 * Regenerates test/contract/api-schema.json, the facts-only digest of the service's public API
 * description (openapi.yaml of lightsparkdev/grid-api) that the contract check validates against.
 *
 *   node test/contract/generate-schema.mjs [openapi.yaml]
 *
 * Without an argument it reads `HEAD:openapi.yaml` from the git mirror at $API_DESCRIPTION_REPO
 * (default /work/.mirror/lightsparkdev+grid-api/repo). The output is committed so CI needs no network.
 *
 * Facts only: paths, methods, parameters, security scheme names, request and response schemas per
 * status, webhook bodies, components. Prose (description, summary, title), examples and
 * externalDocs are dropped; a property that happens to be named `description` is kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const OUT = fileURLToPath(new URL('./api-schema.json', import.meta.url));
const DEFAULT_REPO = '/work/.mirror/lightsparkdev+grid-api/repo';
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags']);
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function load() {
  const file = process.argv[2];
  if (file) return { text: readFileSync(file, 'utf8'), source: { file } };
  const repo = process.env.API_DESCRIPTION_REPO ?? DEFAULT_REPO;
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return {
    text: git('show', 'HEAD:openapi.yaml'),
    source: { repository: 'lightsparkdev/grid-api', commit: git('rev-parse', 'HEAD').trim(), file: 'openapi.yaml' },
  };
}

/** A copy without prose keys; keys of a `properties` map are names, never prose. */
function strip(node, namesMap = false) {
  if (Array.isArray(node)) return node.map((item) => strip(item));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!namesMap && (PROSE.has(key) || key.startsWith('x-'))) continue;
    out[key] = strip(value, !namesMap && (key === 'properties' || key === 'patternProperties'));
  }
  return out;
}

function deref(doc, node) {
  let current = node;
  while (current?.$ref?.startsWith('#/components/') && !current.$ref.startsWith('#/components/schemas/')) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((o, k) => o?.[k], doc);
  }
  return current;
}

/** `{contentType: schema}` of a request body or response, or null when it has none. */
function contentOf(doc, node) {
  const resolved = deref(doc, node);
  if (!resolved?.content) return null;
  return Object.fromEntries(Object.entries(resolved.content).map(([type, c]) => [type, strip(c.schema ?? {})]));
}

function parameters(doc, list) {
  return (list ?? []).map((p) => {
    const r = deref(doc, p);
    return { name: r.name, in: r.in, required: r.required === true, schema: strip(r.schema ?? {}) };
  });
}

function operations(doc) {
  const ops = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...parameters(doc, item.parameters), ...parameters(doc, op.parameters)];
      const responses = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) responses[status] = contentOf(doc, response);
      const body = deref(doc, op.requestBody);
      ops[`${method.toUpperCase()} ${path}`] = {
        operationId: op.operationId,
        security: (op.security ?? doc.security ?? []).flatMap((s) => Object.keys(s)),
        parameters: params,
        requestBody: body ? { required: body.required === true, content: contentOf(doc, body) } : null,
        responses,
      };
    }
  }
  return ops;
}

function webhooks(doc) {
  const out = {};
  for (const [name, item] of Object.entries(doc.webhooks ?? {})) {
    const op = item.post;
    const replies = {};
    for (const [status, response] of Object.entries(op.responses ?? {})) replies[status] = contentOf(doc, response);
    out[name] = { body: contentOf(doc, op.requestBody)?.['application/json'] ?? null, responses: replies };
  }
  return out;
}

const { text, source } = load();
const doc = parse(text, { maxAliasCount: -1 });
const facts = {
  $id: 'https://svc.invalid/api-schema.json',
  source: { ...source, version: doc.info?.version },
  operations: operations(doc),
  webhooks: webhooks(doc),
  components: { schemas: strip(doc.components.schemas, true) },
};
writeFileSync(OUT, `${JSON.stringify(facts, null, 1)}\n`);
console.log(
  `wrote ${OUT}: ${Object.keys(facts.operations).length} operations, ${Object.keys(facts.webhooks).length} webhooks`,
);
