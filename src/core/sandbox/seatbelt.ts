// The sandbox plan as a macOS Seatbelt profile for sandbox-exec. In this language the last rule
// that matches an operation wins, so the profile goes from broad to narrow: allow, then forbid
// every write, then allow the writable folders, then forbid the protected files inside them, then
// forbid reading secrets. Seatbelt matches by pattern, so inside the workspace the protected and
// secret names of guard/protectedNames.ts are matched at every depth and in any letter case (APFS
// ignores case), not listed: a protected path moved away and made again is matched again.
import { seatbeltProtectedPatterns, seatbeltSecretPatterns, seatbeltTemplatePattern } from '../guard/protectedNames';
import type { SandboxPlan } from './plan';

/** A string literal of the profile language: backslashes and quotes escaped. */
export function profileString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** A regex literal of the profile language (`#"..."`: backslashes are the regex's own). */
function regexLiteral(pattern: string): string {
  return `#"${pattern}"`;
}

const DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/stdout', '/dev/stderr'];

export function seatbeltProfile(plan: SandboxPlan): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...DEVICES.map((device) => `(literal ${profileString(device)})`), '(regex #"^/dev/fd/")', `(subpath ${profileString(plan.tempDirectory)})`, ...plan.caches.map((cache) => `(subpath ${profileString(cache.source)})`), ...plan.writable.map((folder) => `(subpath ${profileString(folder)})`)];
  lines.push(`(allow file-write*\n  ${writable.join('\n  ')})`);
  const protectedRules = [
    ...[...plan.readOnly, ...plan.readOnlyMissing].map((entry) => `(subpath ${profileString(entry)})`),
    ...plan.writable.flatMap((folder) => seatbeltProtectedPatterns().map((suffix) => `(require-all (subpath ${profileString(folder)}) (regex ${regexLiteral(suffix)}))`)),
  ];
  lines.push(`(deny file-write*\n  ${protectedRules.join('\n  ')})`);
  const secrets = [
    ...plan.hiddenDirectories.map((folder) => `(subpath ${profileString(folder)})`),
    ...plan.hiddenFiles.map((file) => `(literal ${profileString(file)})`),
    ...plan.emptiedRuntime.map((folder) => `(subpath ${profileString(folder)})`),
    ...seatbeltSecretPatterns().map((pattern) => `(regex ${regexLiteral(pattern)})`),
  ];
  lines.push(`(deny file-read* file-write*\n  ${secrets.join('\n  ')})`);
  lines.push(`(allow file-read* (regex ${regexLiteral(seatbeltTemplatePattern())}))`);
  if (plan.keptRuntime.length) {
    lines.push(`(allow file-read*\n  ${plan.keptRuntime.map((folder) => `(subpath ${profileString(folder)})`).join('\n  ')})`);
  }
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

/** The argv that runs the rest of the command line inside sandbox-exec with the plan's profile. */
export function seatbeltLauncher(executable: string, plan: SandboxPlan): string[] {
  return [executable, '-p', seatbeltProfile(plan)];
}
