// The programs that only create, change or delete the files their operands name (rm, mkdir, touch,
// mv, cp, tee...). They always ask, as before; this module only says whether that is the sole
// reason: every option is one the table below knows, spelled exactly, every file written is named
// on the line and lands inside a workspace folder with the guard's leave (no protected name, no
// link out), and every file read passes the guard. Then the question carries the cause
// `writes-workspace`, which runCommand.askAfterStaged may answer by staging the run. Anything else
// (an option not listed, a name known only when it runs, a target outside, a backup suffix, links)
// asks with no cause. The list is closed: a program not here never has the cause.
import * as path from 'node:path';
import type { Judgement } from '../../decisions';
import type { InvocationJudge } from './judgement';
import { optionTable, parseOptions, optionValues, type OptionTable, type ParsedArguments } from './options';
import type { ShellWord } from './shell/words';

/** What one program's arguments write and read, or why they cannot be told. */
type Targets = { readonly writes: readonly ShellWord[]; readonly reads: readonly ShellWord[] } | { readonly unknown: string };

interface WriterSpec {
  readonly table: OptionTable;
  readonly targets: (parsed: ParsedArguments) => Targets;
}

const HELP = 'help version';

function table(short: string, long: string): OptionTable {
  return optionTable(short, `${long} ${HELP}`);
}

/** Every operand is a file the program writes (creates, changes or deletes). */
const operandsWritten = (parsed: ParsedArguments): Targets => (parsed.operands.length ? { writes: parsed.operands, reads: [] } : { unknown: 'no file is named' });

/**
 * mv and cp: the sources and the destination, or every operand into `-t`'s folder. Into a folder the
 * file written is the folder's entry of the source's name, judged too; a source the shell expands
 * names entries that cannot be listed before it runs.
 */
function moveOrCopy(sourcesAreWritten: boolean) {
  return (parsed: ParsedArguments): Targets => {
    const into = optionValues(parsed, '-t', '--target-directory');
    if (into.length > 1 || parsed.operands.length === 0) {
      return { unknown: 'the destination is not one folder or file' };
    }
    const sources = into.length ? parsed.operands : parsed.operands.slice(0, -1);
    const destination = into.length ? into[0] : parsed.operands[parsed.operands.length - 1];
    if (sources.length === 0) {
      return { unknown: 'there is no source' };
    }
    if (sources.some((word) => !word.literal || word.expands) || !destination.literal || destination.expands) {
      return { unknown: 'a name is only known when it runs' };
    }
    const entries = sources.map((source) => ({ ...destination, text: path.posix.join(destination.text, path.posix.basename(source.text)), source: destination.source }));
    return { writes: [destination, ...entries, ...(sourcesAreWritten ? sources : [])], reads: sourcesAreWritten ? [] : sources };
  };
}

const WRITERS: Readonly<Record<string, WriterSpec>> = {
  rm: { table: table('fiIrRdv', 'force interactive? recursive dir verbose one-file-system preserve-root'), targets: operandsWritten },
  rmdir: { table: table('v', 'ignore-fail-on-non-empty verbose'), targets: operandsWritten },
  unlink: { table: table('', ''), targets: operandsWritten },
  mkdir: { table: table('pv', 'parents verbose'), targets: operandsWritten },
  touch: { table: table('acmd:t:', 'no-create date= time='), targets: operandsWritten },
  tee: { table: table('aip', 'append ignore-interrupts'), targets: operandsWritten },
  truncate: { table: table('cs:', 'no-create size='), targets: operandsWritten },
  mv: { table: table('finTuvt:', 'force interactive no-clobber no-target-directory update verbose target-directory= strip-trailing-slashes'), targets: moveOrCopy(true) },
  cp: { table: table('finTuvrRpat:', 'force interactive no-clobber no-target-directory update verbose recursive archive target-directory= strip-trailing-slashes'), targets: moveOrCopy(false) },
};

/** The programs this module knows. */
export function isWorkspaceWriter(name: string): boolean {
  return Object.hasOwn(WRITERS, name);
}

/**
 * The question for a writer (`asking`, the reason it always had), with the cause `writes-workspace`
 * when its arguments are understood and every file it writes is inside a workspace folder.
 */
export async function judgeWriter(name: string, args: readonly ShellWord[], judge: InvocationJudge, asking: Judgement): Promise<Judgement> {
  const spec = WRITERS[name];
  if (!spec) {
    return asking;
  }
  const outcome = parseOptions(name, spec.table, args);
  if (!outcome.ok) {
    return asking;
  }
  const targets = spec.targets(outcome.parsed);
  return 'unknown' in targets ? asking : writeCause(targets.writes, targets.reads, judge, asking);
}

/** The question with the cause when the files written are inside a workspace folder and the files read pass the guard. */
export async function writeCause(writes: readonly ShellWord[], reads: readonly ShellWord[], judge: InvocationJudge, asking: Judgement): Promise<Judgement> {
  if (writes.length === 0 || writes.some((word) => !word.literal)) {
    return asking;
  }
  const written = await judge.writePaths(writes);
  if (written.judgement.decision !== 'allow' || !written.inWorkspace) {
    return asking;
  }
  if (reads.length > 0 && (await judge.readPaths(reads)).decision !== 'allow') {
    return asking;
  }
  return { ...asking, cause: 'writes-workspace' };
}
