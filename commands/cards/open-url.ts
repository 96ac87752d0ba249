/**
 * Hands a URL to the system browser without printing it. SVC_BROWSER (then BROWSER, the usual
 * convention) names a program to run with the URL as its only argument, which is also how tests
 * observe the call; otherwise open (macOS), rundll32's URL handler (Windows; `start` would re-parse
 * `&` in the URL) or xdg-open. Detached so the browser outlives a short-lived CLI process.
 */
import { spawn } from 'node:child_process';
import { SvcError, UsageError } from '../../src/errors.js';

export function openerCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  const custom = env.SVC_BROWSER || env.BROWSER;
  if (custom) return { command: custom, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  return { command: 'xdg-open', args: [] };
}

/** Resolves once the opener started; rejects (without the URL in the message) when it cannot start. */
export function openUrl(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  // Only web URLs: anything else could make the opener run a file or read the URL as a flag.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    return Promise.reject(new UsageError('The service returned a URL that is not http(s); refusing to open it.', { field: 'panEmbedUrl' }));
  }
  const { command, args } = openerCommand(env);
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url], { detached: true, stdio: 'ignore', env });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new SvcError(`Could not start the browser (${command}: ${error.code ?? error.message}).`, {
        hint: 'Set SVC_BROWSER to your browser command, or run without --open to print the URL.',
      })),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
