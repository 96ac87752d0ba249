/**
 * The dashboard's front end: plain files (HTML, CSS, ES modules) read from its folder, ui/ beside
 * this module in the sources, dashboard-ui/ beside the bundle in the package (.ci/build.mjs copies
 * it there). Only files of that folder with a known type are served; each is read once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

export interface Asset {
  type: string;
  body: Buffer;
}

function folder(): string {
  for (const name of ['./ui/', './dashboard-ui/']) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(`${path}index.html`)) return path;
  }
  throw new Error(
    'the dashboard files are missing (ui/ beside src/emulator/dashboard, dashboard-ui/ beside the bundle)',
  );
}

let assets: Map<string, Asset> | undefined;

/** The file named `name` (`app.js`), or undefined when there is none. */
export function asset(name: string): Asset | undefined {
  if (!assets) {
    assets = new Map();
    const dir = folder();
    for (const file of readdirSync(dir)) {
      const type = TYPES[file.slice(file.lastIndexOf('.') + 1)];
      if (type) assets.set(file, { type, body: readFileSync(`${dir}${file}`) });
    }
  }
  return assets.get(name);
}
