/**
 * Hands a URL to the system browser without printing it. SVC_BROWSER (then BROWSER, the usual
 * convention) names a program to run with the URL as its only argument, which is also how tests
 * observe the call; otherwise open (macOS), rundll32's URL handler (Windows; `start` would re-parse
 * `&` in the URL) or xdg-open. Detached so the browser outlives a short-lived CLI process.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { SvcError, UsageError } from '../../src/errors.js';

export interface Opener {
  command: string;
  args: string[];
}

const OPENER_HINT = 'Set SVC_BROWSER to your browser command, or run without --open to print the URL.';

export function openerCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Opener {
  const custom = env.SVC_BROWSER || env.BROWSER;
  if (custom) return { command: custom, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  return { command: 'xdg-open', args: [] };
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The opener, checked to exist before anything is requested: a reveal link is good once, so finding
 * out afterwards that a headless box has no xdg-open would burn it. (Windows resolves through
 * PATHEXT, and its rundll32 is always there, so it is not checked.)
 */
export function requireOpener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Opener {
  const opener = openerCommand(env, platform);
  if (platform === 'win32') return opener;
  const { command } = opener;
  const found = command.includes('/')
    ? isExecutableFile(command)
    : (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutableFile(join(dir, command)));
  if (!found)
    throw new UsageError(`--open found no browser to run: "${command}" is not an executable on PATH.`, {
      input: '--open',
      hint: OPENER_HINT,
    });
  return opener;
}

/**
 * How long an opener is watched for a failure. xdg-open, open and a browser that hands the URL to a
 * running one exit within it, with a status that says whether the page opened; a browser started
 * by the opener itself keeps running past it, which counts as opened.
 */
const OPENER_WATCH_MS = 3000;

/** The browser could not show the page; the message never holds the URL. */
export class BrowserFailedError extends SvcError {}

/**
 * Resolves once the opener opened the page (exit 0, or still running after the watch); rejects,
 * without the URL in the message, when it cannot start or exits with a failure.
 */
export function openUrl(url: string, env: NodeJS.ProcessEnv, opener: Opener = openerCommand(env)): Promise<void> {
  // Only web URLs: anything else could make the opener run a file or read the URL as a flag.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    return Promise.reject(
      new UsageError('The service returned a URL that is not http(s); refusing to open it.', { input: 'panEmbedUrl' }),
    );
  }
  const { command, args } = opener;
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url], { detached: true, stdio: 'ignore', env });
    const watch = setTimeout(() => {
      child.unref();
      resolve();
    }, OPENER_WATCH_MS);
    watch.unref();
    const fail = (why: string) => {
      clearTimeout(watch);
      reject(new BrowserFailedError(`The browser did not open the page (${command}: ${why}).`, { hint: OPENER_HINT }));
    };
    child.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    child.once('exit', (code, signal) => {
      if (code === 0) {
        clearTimeout(watch);
        resolve();
      } else fail(signal ? `ended by ${signal}` : `exit status ${code}`);
    });
  });
}
