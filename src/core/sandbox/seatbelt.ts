// The sandbox plan as a macOS Seatbelt profile for sandbox-exec. In this language the last rule
// that matches an operation wins, so the profile goes from broad to narrow: allow, then forbid
// every write, then allow the writable folders, then forbid secret names, then read (and, inside
// the writable folders, write) their committed templates again, then forbid writing the protected
// files, then hide the plan's secret folders and files whatever their names. Seatbelt matches by
// pattern, so inside the workspace the protected and secret names of guard/protectedNames.ts are
// matched at every depth and in any letter case (APFS ignores case), not listed: a protected path
// moved away and made again is matched again. Every rule is proven by
// test/unit/core/sandbox/seatbelt.test.ts; none has run on a real Mac (docs/sandbox.md, "macOS").
import { seatbeltProtectedPatterns, seatbeltSecretPatterns, seatbeltTemplatePattern } from '../guard/protectedNames';
import { isInsidePath } from '../location';
import type { SandboxPlan } from './plan';

/**
 * A string literal of the profile language: backslashes and quotes escaped, every other character
 * (a newline, any Unicode letter) as it is, which the language's reader keeps as it is.
 */
export function profileString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** A regex literal of the profile language (`#"..."`: backslashes are the regex's own). */
function regexLiteral(pattern: string): string {
  return `#"${pattern}"`;
}

/**
 * A path as macOS's kernel names it to the sandbox, which matches paths with their links resolved:
 * /tmp, /var and /etc are links into /private on every Mac, so a rule naming /tmp/x never matches
 * anything. The plan's paths are mostly resolved already (realpath); the fixed links are resolved
 * here for those that are not (a system file the table names as /etc/..., a variable's value).
 */
export function seatbeltPath(path: string): string {
  return /^\/(tmp|var|etc)(\/|$)/.test(path) ? `/private${path}` : path;
}

const subpath = (path: string): string => `(subpath ${profileString(seatbeltPath(path))})`;
const literal = (path: string): string => `(literal ${profileString(seatbeltPath(path))})`;
const regex = (pattern: string): string => `(regex ${regexLiteral(pattern)})`;

/**
 * One rule with its filters one per line, each once (a folder named as written and resolved is one
 * path here); none without filters, which would cover every path.
 */
function rule(head: string, filters: readonly string[]): string[] {
  return filters.length ? [`(${head}\n  ${[...new Set(filters)].join('\n  ')})`] : [];
}

/**
 * The plan's hidden files that need a rule of their own: not those the secret names already hide
 * (a workspace can hold thousands of .env files, and the profile is one argument of sandbox-exec).
 */
export function seatbeltListedFiles(plan: SandboxPlan): string[] {
  const secretNames = seatbeltSecretPatterns().map((pattern) => new RegExp(pattern, 's'));
  const template = new RegExp(seatbeltTemplatePattern(), 's');
  return plan.hiddenFiles.filter((file) => {
    const seen = seatbeltPath(file);
    const byName = secretNames.some((name) => name.test(seen)) && !template.test(seen) && !plan.keptRuntime.some((folder) => isInsidePath(seen, seatbeltPath(folder)));
    return !byName;
  });
}

const DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr'];

export function seatbeltProfile(plan: SandboxPlan): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  lines.push(...rule('allow file-write*', [...DEVICES.map(literal), '(regex #"^/dev/fd/")', subpath(plan.tempDirectory), ...plan.caches.map((cache) => subpath(cache.source)), ...plan.writable.map(subpath)]));
  // Secret names anywhere: not read, written, hard-linked (a second name no rule matches) or cloned.
  lines.push(...rule('deny file-read* file-write* file-link file-clone', seatbeltSecretPatterns().map(regex)));
  // Their committed templates (.env.example) are read anywhere and written where writes are allowed, as bubblewrap does.
  const template = regex(seatbeltTemplatePattern());
  lines.push(`(allow file-read* ${template})`);
  lines.push(...rule('allow file-write*', plan.writable.map((folder) => `(require-all ${subpath(folder)} ${template})`)));
  // Execution config stays read-only, and cannot be hard-linked to a name that is not; a folder
  // that holds a read-only entry cannot be renamed or removed (on Linux it is a mount point), so
  // the entry cannot be moved away and replaced.
  const protectedRules = [
    ...[...plan.readOnly, ...plan.readOnlyMissing].map(subpath),
    ...plan.writable.flatMap((folder) => seatbeltProtectedPatterns().map((suffix) => `(require-all ${subpath(folder)} ${regex(suffix)})`)),
  ];
  lines.push(...rule('deny file-write* file-link', protectedRules));
  lines.push(...rule('deny file-write*', plan.pinned.map(literal)));
  // Last, so no template or writable folder opens them: the session's runtime folders (but the
  // folder read again inside one), then the plan's secret folders and files.
  const hidden = 'deny file-read* file-write* file-link file-clone';
  lines.push(...rule(hidden, plan.emptiedRuntime.map(subpath)));
  lines.push(...rule('allow file-read*', plan.keptRuntime.map(subpath)));
  lines.push(...rule(hidden, [...plan.hiddenDirectories.map(subpath), ...seatbeltListedFiles(plan).map(literal), ...(plan.hiddenTargets ?? []).map(subpath)]));
  // Every other connection is refused: an approved command reaches only the proxy's two loopback
  // ports (the proxy judges each domain), a command that ran without asking nothing at all.
  lines.push('(deny network*)');
  if (plan.network && plan.proxy?.transport === 'tcp') {
    // And the machine's loopback ports the user allowed (runCommand.allowedLocalPorts) or this window's commands serve.
    const local = plan.proxy.local.map((port) => `\n  (remote ip "localhost:${port}")`).join('');
    lines.push(`(allow network-outbound\n  (remote ip "localhost:${plan.proxy.http}")\n  (remote ip "localhost:${plan.proxy.socks}")${local})`);
  }
  if (plan.serves) {
    // A background command's server listens on the machine's loopback, where the browser reaches it; nowhere else.
    lines.push('(allow network-bind network-inbound\n  (local ip "localhost:*"))');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A profile with every kind of rule and filter seatbeltProfile writes, over paths that need not
 * exist, for the sandbox's probe at activation (node/machineSandbox.ts): where this Mac's
 * sandbox-exec does not read one of them, the probe fails with its words, not every command.
 */
export function seatbeltProbeProfile(): string {
  const folder = '/private/var/empty/wat-probe';
  return seatbeltProfile({
    writable: [folder],
    pinned: [`${folder}/p`],
    readOnly: [`${folder}/p/r`],
    readOnlyMissing: [],
    hiddenDirectories: [`${folder}/h`],
    hiddenFiles: [`${folder}/f`],
    hiddenTargets: [`${folder}/t`],
    emptiedRuntime: [`${folder}/e`],
    keptRuntime: [`${folder}/e/k`],
    caches: [],
    tempDirectory: `${folder}/tmp`,
    emptyDirectory: folder,
    network: true,
    proxy: { transport: 'tcp', http: 1, socks: 2, local: [3] },
    serves: true,
  });
}

/** The argv that runs the rest of the command line inside sandbox-exec with the plan's profile. */
export function seatbeltLauncher(executable: string, plan: SandboxPlan): string[] {
  return [executable, '-p', seatbeltProfile(plan)];
}
