/** Hints that name a command that works: other CLIs' words map to svc's verbs; a mistyped profile is not one to create. */
import { expect, it } from 'vitest';
import { parseErrorJSON, restyleParseError } from '../../commands/argv.js';
import { unknownProfileError } from '../../commands/config/known-profile.js';

const plain = { red: (s: string) => s, dim: (s: string) => s };

it('logout, freeze and listen suggest the svc command that does it, not the nearest spelling', () => {
  expect(restyleParseError("error: unknown command 'logout'\n(Did you mean login?)", plain)).toContain(
    'did you mean svc session revoke <Session:id>?',
  );
  expect(restyleParseError("error: unknown command 'freeze'\n(Did you mean create?)", plain)).toContain(
    'svc cards update <Card:id> --state FROZEN',
  );
  expect(restyleParseError("error: unknown command 'listen'", plain)).toContain('did you mean svc webhook listen?');
  expect(
    parseErrorJSON(new Error("error: unknown command 'logout'\n(Did you mean login?)"), 'commander.unknownCommand')
      .hint,
  ).toBe('Did you mean svc session revoke <Session:id>? Run with --help for usage.');
  expect(restyleParseError("error: unknown command 'lgin'\n(Did you mean login?)", plain)).toContain(
    'did you mean login?',
  );
});

it('a mistyped profile suggests the near name, not creating the typo', () => {
  const typo = unknownProfileError('locl', ['local', 'prod'], '--profile');
  expect(typo.message).toContain('did you mean "local"');
  expect(typo.hint).toBe('Use --profile local, or svc config list for every profile.');
  expect(unknownProfileError('staging', ['local'], '--profile').hint).toContain('config set base-url');
});
