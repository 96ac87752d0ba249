/**
 * Every example a user can copy: the `svc …` lines of README.md's shell blocks, and the `$ …`
 * lines of every help screen (the root's and each verb's, found by walking the command tree and
 * spawning `svc <words> --help`, so the text is what a user sees).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandTree } from '../../../commands/command-tree.js';
import { OPERATIONS } from '../../../commands/resources/table.js';
import { REPO_ROOT, runSvc } from '../../helpers/spawn-svc.js';

export interface Example {
  /** The command line as printed, without its trailing comment, continuations joined. */
  line: string;
  /** Where it is printed: `README.md:42` or `svc otp verify --help`. */
  where: string[];
}

/** `svc` as a command of a shell line: at its start, or after a pipe, `$(`, `;`, `&&` or an assignment. */
const RUNS_SVC = /(^|[|;&(]\s*|^\w+=\$\()svc\s/;

/** The line without a trailing `# comment` (a `#` inside quotes, or glued to a word, is not one). */
export function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** Physical lines to logical ones: a trailing backslash continues the line. */
function joinContinuations(lines: { text: string; at: number }[]): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let pending: { text: string; at: number } | undefined;
  for (const { text, at } of lines) {
    const current = pending ? { text: `${pending.text} ${text.trim()}`, at: pending.at } : { text, at };
    if (/\\$/.test(current.text)) pending = { text: current.text.slice(0, -1).trimEnd(), at: current.at };
    else {
      pending = undefined;
      out.push(current);
    }
  }
  return out;
}

/** The logical lines (continuations joined, comments kept) of the first shell block under a README heading. */
export function readmeBlock(heading: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf(`\n${heading}`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return joinContinuations(block.split('\n').map((t, at) => ({ text: t, at })))
    .map((l) => l.text)
    .filter((l) => l.trim() !== '');
}

/** The `svc` lines of README.md's sh/bash/shell fences. */
export function readmeExamples(): { line: string; where: string }[] {
  const lines = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  const found: { line: string; where: string }[] = [];
  let fence: string | undefined; // the open fence's language
  let block: { text: string; at: number }[] = [];
  lines.forEach((raw, i) => {
    const mark = /^\s*```(\w*)/.exec(raw);
    if (!mark) {
      if (fence !== undefined) block.push({ text: raw, at: i + 1 });
      return;
    }
    if (fence === undefined) {
      fence = mark[1]!;
      block = [];
      return;
    }
    if (['sh', 'bash', 'shell'].includes(fence)) {
      for (const { text, at } of joinContinuations(block)) {
        const line = withoutComment(text).trim();
        if (RUNS_SVC.test(line)) found.push({ line, where: `README.md:${at}` });
      }
    }
    fence = undefined;
  });
  return found;
}

/** The `$ …` lines of a help screen's Example(s) paragraphs. */
export function helpExamples(help: string): string[] {
  const out: string[] = [];
  for (const paragraph of help.split(/\n\s*\n/)) {
    if (!/^Examples?\b.*:/m.test(paragraph)) continue;
    const lines = paragraph
      .split('\n')
      .map((text, at) => ({ text, at }))
      .filter((l) => !/^Examples?\b/.test(l.text));
    for (const { text } of joinContinuations(lines)) {
      const m = /^\s*\$ (.*)$/.exec(text);
      if (m) out.push(withoutComment(m[1]!).trim());
    }
  }
  return out;
}

/** The words of every command that has a help screen: the root, each verb (a group has no example of its own). */
export async function helpCommands(): Promise<string[][]> {
  const verbs = (await commandTree(OPERATIONS)).nouns.flatMap((n) =>
    n.verbs.length ? n.verbs.filter((v) => !v.group).map((v) => [n.name, ...v.name.split(' ')]) : [[n.name]],
  );
  return [[], ...verbs];
}

/** README's and every help screen's examples, each line once with every place it is printed. */
export async function allExamples(concurrency = 4): Promise<{ examples: Example[]; helpWithout: string[] }> {
  const byLine = new Map<string, Example>();
  const add = (line: string, where: string) => {
    const known = byLine.get(line);
    if (known) known.where.push(where);
    else byLine.set(line, { line, where: [where] });
  };
  for (const { line, where } of readmeExamples()) add(line, where);
  const commands = await helpCommands();
  const helps: string[] = new Array(commands.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < commands.length) {
        const i = next++;
        const r = await runSvc([...commands[i]!, '--help']);
        if (r.code !== 0) throw new Error(`svc ${commands[i]!.join(' ')} --help exited ${r.code}: ${r.stderr}`);
        helps[i] = r.stdout;
      }
    }),
  );
  const helpWithout: string[] = [];
  commands.forEach((words, i) => {
    const where = `svc ${[...words, '--help'].join(' ')}`;
    const lines = helpExamples(helps[i]!);
    if (lines.length === 0 && words.length > 0) helpWithout.push(where);
    for (const line of lines) add(line, where);
  });
  return { examples: [...byLine.values()], helpWithout };
}
