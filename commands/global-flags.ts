/**
 * The global flags, declared once with the verbs' flag spec: the root's commander options, the
 * GlobalOptions type every command reads, the flags that take a value (so the word after them is
 * not the noun) and shell completion all come from here. bin/svc.js reads the value flags from
 * dist/cli/argv-words.cjs, which the build writes from this list beside the argv scanner (it cannot
 * load TypeScript, and loading the root just for them would cost the startup it is there to save).
 */
import { flag, longFlag, type OptionsOf, type VerbSpec } from './verb.js';
import { JQ_SUBSET } from './jq/subset.js';

export const GLOBAL_FLAGS = {
  profile: flag.value('--profile <name>', 'configuration profile to use (env SERVICE_PROFILE)', 'profiles'),
  baseUrl: flag.value('--base-url <url>', 'service base URL including the version segment (env SERVICE_BASE_URL)'),
  json: flag.boolean('--json', 'print only JSON on stdout, with a stable shape'),
  /** false when --no-input was given. */
  input: flag.negatable('--no-input', 'never prompt; a missing value is an error naming the flag'),
  yes: flag.boolean('-y, --yes', 'answer yes to confirmations'),
  verbose: flag.boolean('--verbose', 'log each request (method, path, status, timing; never secrets) to stderr'),
  /** false when --no-color was given. */
  color: flag.negatable('--no-color', 'disable colour (also NO_COLOR)'),
  /** A jq expression applied to the --json output (json is true then). */
  jq: flag.value(
    '--jq <expr>',
    `filter the --json output with a jq expression (implies --json; strings print raw); the subset: ${JQ_SUBSET}`,
  ),
  /** Seconds before an HTTP request is given up (else SERVICE_TIMEOUT, else the client's default). */
  timeout: flag.value(
    '--timeout <seconds>',
    'give up on an HTTP request after this long (env SERVICE_TIMEOUT; default 30)',
  ),
  /** Credentials may go over plain http:// to a host that is not this machine. */
  allowInsecureHttp: flag.boolean(
    '--allow-insecure-http',
    'send credentials over plain http:// to a host other than this machine (env SERVICE_ALLOW_INSECURE_HTTP=1)',
  ),
};

/** The global flags as a spec, for the helpers that read a spec's flags. */
export const GLOBAL_SPEC: VerbSpec<Record<never, never>, typeof GLOBAL_FLAGS> = {
  name: 'svc',
  description: 'global flags',
  flags: GLOBAL_FLAGS,
};

/** Global flags, after commander parsed them (README "Configuration"). */
export type GlobalOptions = OptionsOf<typeof GLOBAL_SPEC>;

/** The global flags that take a value (`--profile <name>`): the word after one is its value. */
export const GLOBAL_VALUE_FLAGS: readonly string[] = Object.values(GLOBAL_FLAGS)
  .filter((f) => f.kind === 'value')
  .map((f) => longFlag(f.syntax));
