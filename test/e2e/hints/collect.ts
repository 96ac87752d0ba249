/**
 * Every `svc …` command the CLI can print in a message or hint: the string and template literals
 * of commands/ and src/ (read with the TypeScript parser, so a comment is never taken for one),
 * each occurrence of `svc` followed by a noun of the command tree read as far as the tree allows:
 * global flags, the noun, its verb, then its flags (with their values) and positionals. Prose
 * after the command ("… --list marks the scenarios") ends it: a word the verb has no room for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { commandTree, type CommandTree } from '../../../commands/command-tree.js';
import { OPERATIONS } from '../../../commands/resources/table.js';
import { nounNamed } from '../../../commands/nouns.js';
import { REPO_ROOT } from '../../helpers/spawn-svc.js';

/** One word of a printed command; a placeholder's stand-in is chosen by its slot. */
export type Word =
  | { text: string }
  /** A `<placeholder>` or a `${expression}`: filled by the flag it follows or the positional it is. */
  | { slot: { flag: string } | { positional: number }; shown: string };

export interface HintCommand {
  /** Noun and verb, e.g. `customers update` (the key of the stand-ins for positionals). */
  verb: string;
  words: Word[];
  /** As written in the source (expressions as `${…}`). */
  shown: string;
  /** `file:line` of each literal that prints it. */
  where: string[];
}

/** `<value>`, `AuthMethod:<uuid>`, `${expression}`, `…`, or `-` (a value read from stdin or a prompt). */
const IS_PLACEHOLDER = /^(([A-Za-z]+:)?<[^<>]+>|\$\{[^}]+\}|…|\.\.\.|-)$/;
/** Punctuation that ends a command when it closes a word: `(svc session list)`, `svc keys generate.` */
const CLOSER = /[),;.:`'"?]+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each string literal's text, template expressions written as `${source}`. */
function literals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      out.push({ text: node.text, line: lineOf(node) });
    else if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) text += `\${${span.expression.getText(source)}}${span.literal.text}`;
      out.push({ text, line: lineOf(node) });
      return; // the spans' own literals are inside this one
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A literal's text split at spaces, a `${…}` kept whole even when its source has spaces. */
function tokens(text: string): string[] {
  // `<value>${…}`: the expression is a word of its own.
  return text.replace(/>\$\{/g, '> ${').match(/(?:\$\{[^}]*\}|[^\s$]|\$(?!\{))+/g) ?? [];
}

type Verb = CommandTree['nouns'][number]['verbs'][number];

/** The command a literal prints from `svc` on (`rest` are the words after `svc`), or undefined if none. */
function readCommand(rest: string[], tree: CommandTree): Omit<HintCommand, 'where'> | undefined {
  const words: Word[] = [];
  const shown: string[] = [];
  let i = 0;
  let closed = false;
  const next = (): string | undefined => {
    if (closed || i >= rest.length) return undefined;
    const raw = rest[i]!;
    const text = IS_PLACEHOLDER.test(raw) ? raw : raw.replace(CLOSER, '');
    // A parenthesis opens prose ("svc session refresh (makes …"); `2>/dev/null` and `|` are shell.
    if (raw.startsWith('(') || (/[>|]/.test(text) && !IS_PLACEHOLDER.test(text))) return undefined;
    return text === '' ? undefined : text;
  };
  const take = (word: Word, raw: string) => {
    words.push(word);
    shown.push(raw);
    if (!IS_PLACEHOLDER.test(rest[i]!) && CLOSER.test(rest[i]!)) closed = true;
    i++;
  };
  const takeValue = (flag: string) => {
    const value = next();
    if (value === undefined) return;
    take(IS_PLACEHOLDER.test(value) ? { slot: { flag }, shown: value } : { text: value }, value);
  };

  for (let t = next(); t?.startsWith('--') && tree.globalFlags.includes(t.split('=')[0]!); t = next()) {
    take({ text: t }, t);
    if (!t.includes('=') && tree.globalValueFlags.includes(t)) takeValue(t);
  }
  const nounWord = next();
  const noun = tree.nouns.find((n) => n.name === nounNamed(nounWord)?.name);
  if (!noun || nounWord === undefined) return undefined;
  take({ text: nounWord }, nounWord);

  let verb: Pick<Verb, 'name' | 'flags' | 'valueFlags' | 'args'> = noun;
  let verbName = noun.name;
  if (noun.verbs.length) {
    const one = next();
    const two = one && i + 1 < rest.length && !closed ? `${one} ${rest[i + 1]!.replace(CLOSER, '')}` : undefined;
    const found =
      noun.verbs.find((v) => !v.group && v.name === two) ?? noun.verbs.find((v) => v.name === one && !v.group);
    // An expression in the verb's place (`svc login ${type}`) cannot be told apart: not checked.
    if (one?.startsWith('${')) return undefined;
    if (found) {
      for (const w of found.name.split(' ')) take({ text: w }, w);
      verb = found;
      verbName = `${noun.name} ${found.name}`;
    } else if (one !== undefined && !one.startsWith('-') && !STOP.has(one)) {
      // A verb the noun does not have: what this test is for.
      take({ text: one }, one);
      verbName = `${noun.name} ${one}`;
    }
  }

  let positionals = 0;
  // After a flag, a bare word is prose ("svc trigger --list marks …"), not a positional.
  let flagsRead = false;
  for (let t = next(); t !== undefined; t = next()) {
    if (t.startsWith('-') && t !== '-') {
      const flag = t.split('=')[0]!;
      flagsRead = true;
      take({ text: t }, t);
      const takesValue = verb.valueFlags.includes(flag) || tree.globalValueFlags.includes(flag);
      if (takesValue && !t.includes('=')) takeValue(flag);
    } else if (positionals < verb.args && !STOP.has(t) && !(flagsRead && /^[a-z]+$/.test(t))) {
      take(IS_PLACEHOLDER.test(t) ? { slot: { positional: positionals }, shown: t } : { text: t }, t);
      positionals++;
    } else break;
  }
  return { verb: verbName, words, shown: `svc ${shown.join(' ')}` };
}

/**
 * Words of prose after a command, never a verb or a positional: "svc session refresh or log in
 * again", "svc trigger only runs …", "the svc emulator state file", "svc config holds profiles".
 */
const STOP = new Set(
  'or and then to for with first again it the a an instead only works shows marks makes also holds state fixture'.split(
    ' ',
  ),
);

/** Every command printed by commands/ and src/, once each, with where it is printed. */
export async function hintCommands(): Promise<HintCommand[]> {
  const tree = await commandTree(OPERATIONS);
  const byShown = new Map<string, HintCommand>();
  const files = [...sourceFiles(join(REPO_ROOT, 'commands')), ...sourceFiles(join(REPO_ROOT, 'src'))];
  for (const file of files) {
    for (const { text, line } of literals(file)) {
      const words = tokens(text);
      words.forEach((word, at) => {
        // `svc` as a word of its own (not `svc-test`; not `$ svc` or `… | svc` of a help example: examples.test.ts runs those).
        if (word.replace(/^[`('"]+/, '') !== 'svc' || ['$', '|'].includes(words[at - 1]!)) return;
        const command = readCommand(words.slice(at + 1), tree);
        if (!command) return;
        const where = `${relative(REPO_ROOT, file)}:${line}`;
        const known = byShown.get(command.shown);
        if (known) known.where.push(where);
        else byShown.set(command.shown, { ...command, where: [where] });
      });
    }
  }
  return [...byShown.values()];
}
