// The sandbox plan as a macOS Seatbelt profile for sandbox-exec. In this language the last rule
// that matches an operation wins, so the profile goes from broad to narrow: allow, then forbid
// every write, then allow the writable folders, then forbid the protected files inside them, then
// forbid reading secrets. Seatbelt matches by pattern, so inside the workspace the protected and
// secret names are matched at every depth and in any letter case (APFS ignores case), not listed.
import type { SandboxPlan } from './plan';

/** A string literal of the profile language: backslashes and quotes escaped. */
export function profileString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** A regex literal of the profile language (`#"..."`: backslashes are the regex's own). */
function regexLiteral(pattern: string): string {
  return `#"${pattern}"`;
}

/** A regex that matches the name in either case, e.g. `.env` -> `\.[eE][nN][vV]`. */
function anyCase(name: string): string {
  return [...name].map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : `\\${char}`)).join('');
}

const DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr'];

/** The execution-config names of the guard inside a workspace folder, as path-suffix regexes. */
const PROTECTED_SUFFIXES = [`/${anyCase('.git')}/${anyCase('config')}$`, `/${anyCase('.git')}/${anyCase('hooks')}(/|$)`, `/${anyCase('.vscode')}(/|$)`, `${anyCase('.code-workspace')}$`];

/** `.env` variants and netrc, wherever they are; the committed templates are read again below. */
const SECRET_SUFFIXES = [`/${anyCase('.env')}(\\.[^/]*)?$`, `/[._]${anyCase('netrc')}$`];
const TEMPLATE_SUFFIX = `/${anyCase('.env')}\\.(example|sample|template|dist|defaults)$`;

export function seatbeltProfile(plan: SandboxPlan): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...DEVICES.map((device) => `(literal ${profileString(device)})`), '(regex #"^/dev/fd/")', `(subpath ${profileString(plan.tempDirectory)})`, ...plan.writable.map((folder) => `(subpath ${profileString(folder)})`)];
  lines.push(`(allow file-write*\n  ${writable.join('\n  ')})`);
  const protectedRules = [
    ...[...plan.readOnly, ...plan.readOnlyMissing].map((entry) => `(subpath ${profileString(entry)})`),
    ...plan.writable.flatMap((folder) => PROTECTED_SUFFIXES.map((suffix) => `(require-all (subpath ${profileString(folder)}) (regex ${regexLiteral(suffix)}))`)),
  ];
  lines.push(`(deny file-write*\n  ${protectedRules.join('\n  ')})`);
  const secrets = [
    ...plan.hiddenDirectories.map((folder) => `(subpath ${profileString(folder)})`),
    ...plan.hiddenFiles.map((file) => `(literal ${profileString(file)})`),
    ...SECRET_SUFFIXES.map((suffix) => `(regex ${regexLiteral(suffix)})`),
  ];
  lines.push(`(deny file-read* file-write*\n  ${secrets.join('\n  ')})`);
  lines.push(`(allow file-read* (regex ${regexLiteral(TEMPLATE_SUFFIX)}))`);
  if (!plan.network) {
    lines.push('(deny network*)');
  }
  return `${lines.join('\n')}\n`;
}

/** The argv that runs the rest of the command line inside sandbox-exec with the plan's profile. */
export function seatbeltLauncher(executable: string, plan: SandboxPlan): string[] {
  return [executable, '-p', seatbeltProfile(plan)];
}
