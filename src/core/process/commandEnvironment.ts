/** git's variables that choose the repository, its config, its objects or a program to run. */
const GIT_REDIRECTING = new Set([
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_EXTERNAL_DIFF', 'GIT_EXEC_PATH',
  'GIT_ATTR_SOURCE', 'GIT_REPLACE_REF_BASE', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_PROXY_COMMAND', 'GIT_ASKPASS',
]);

/**
 * The environment a command runs in: the extension host's, minus what only makes sense inside the
 * editor, plus everything that turns prompts, pagers and colours off. CI is left alone: it changes
 * more than interactivity (some builds fail on warnings under CI), and with no TTY on stdout the
 * watch modes of test runners stay off anyway. `isWritable` says which PATH entries a command
 * could write to (they are dropped).
 */
/**
 * The search path as the host has it: Windows spells the variable `Path` (any case; its environment
 * ignores case, a copy of it does not), separates entries with `;` and starts an absolute one with a
 * drive (`C:\`) or a share (`\\server`); elsewhere `PATH`, `:` and `/`.
 */
export function searchPathVariable(env: Readonly<Record<string, string | undefined>>, platform?: string): { readonly key: string; readonly separator: string; absolute(entry: string): boolean; readonly fallback: string } {
  if (platform === 'win32') {
    const systemRoot = Object.entries(env).find(([name]) => name.toUpperCase() === 'SYSTEMROOT')?.[1] ?? 'C:\\Windows';
    return {
      key: Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'Path',
      separator: ';',
      absolute: (entry) => /^[A-Za-z]:[\\/]/.test(entry) || /^[\\/]{2}[^\\/]/.test(entry),
      fallback: `${systemRoot}\\System32;${systemRoot}`,
    };
  }
  return { key: 'PATH', separator: ':', absolute: (entry) => entry.startsWith('/'), fallback: '/usr/local/bin:/usr/bin:/bin' };
}

export function nonInteractiveEnvironment(base: Readonly<Record<string, string | undefined>>, isWritable: (folder: string) => boolean = () => false, platform?: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base };
  // Electron's flag would make any Electron app (the `code` CLI included) behave as plain Node.
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.FORCE_COLOR;
  delete env.CLICOLOR_FORCE;
  // Variables that point git at another repository, config, object store or program: the policy
  // judged git by the repository it finds on the disk, and the forced options assume no other.
  for (const name of Object.keys(env)) {
    if (GIT_REDIRECTING.has(name) || name.startsWith('GIT_CONFIG')) {
      delete env[name];
    }
  }
  // Empty or relative PATH entries would make `ls` mean a file of the workspace named ls; an entry a
  // command can write (a workspace folder, /tmp) would let one command plant the `gzip` that a
  // later command which runs without asking (`rg -z`) starts by name.
  const variable = searchPathVariable(env, platform);
  const searchPath = (env[variable.key] ?? '').split(variable.separator).filter((entry) => variable.absolute(entry) && !isWritable(entry));
  env[variable.key] = searchPath.length ? searchPath.join(variable.separator) : variable.fallback;
  if (platform === 'win32') {
    // cmd.exe, and CreateProcess for a bare name, look in the current folder before Path: not in a workspace.
    env.NoDefaultCurrentDirectoryInExePath = '1';
  }
  return {
    ...env,
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    MANPAGER: 'cat',
    SYSTEMD_PAGER: '',
    LESS: '-FRX',
    GIT_TERMINAL_PROMPT: '0',
    GIT_EDITOR: 'true',
    GCM_INTERACTIVE: 'never',
    SSH_ASKPASS_REQUIRE: 'never',
    DEBIAN_FRONTEND: 'noninteractive',
    PIP_NO_INPUT: '1',
    NPM_CONFIG_FUND: 'false',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    NO_UPDATE_NOTIFIER: '1',
    NO_COLOR: '1',
    TERM: 'dumb',
  };
}

/** Words in a variable's name that mark a secret (a token, a key, a password, a session). */
const SECRET_NAME_WORDS = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|PRIVATE|SESSION|COOKIE/i;

/**
 * Credential variables of cloud and package tools whose names hold none of those words, and handles
 * that let a command ask something else for credentials: agent sockets (ssh, gpg), VS Code's git
 * askpass and IPC handles (a command could drive the editor or git's credential prompt), Kerberos.
 */
const SECRET_NAMES = new Set([
  'MYSQL_PWD', 'PGPASS', 'PGPASSFILE', 'PGSERVICEFILE', 'DATABASE_URL', 'REDIS_URL', 'MONGODB_URI', 'AMQP_URL',
  'SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'SSH_ASKPASS', 'GPG_AGENT_INFO', 'GPG_TTY', 'KRB5CCNAME', 'KRB5_KTNAME',
  'VSCODE_GIT_IPC_HANDLE', 'VSCODE_GIT_ASKPASS_NODE', 'VSCODE_GIT_ASKPASS_MAIN', 'VSCODE_GIT_ASKPASS_EXTRA_ARGS',
  'VSCODE_IPC_HOOK', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_IPC_HOOK_EXTHOST', 'VSCODE_HANDLES_UNCAUGHT_ERRORS',
  'AZURE_CLIENT_CERTIFICATE_PATH', 'GOOGLE_GHA_CREDS_PATH', 'CLOUDSDK_AUTH_ACCESS_TOKEN_FILE', 'NETRC',
]);

/** A value that carries a password in a URL (`scheme://user:password@host`). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/** True when a variable is a secret or a credential handle by its name, or carries a password in a URL. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return SECRET_NAME_WORDS.test(name) || SECRET_NAMES.has(name.toUpperCase()) || /^VSCODE_GIT_/i.test(name) || (value !== undefined && URL_WITH_PASSWORD.test(value));
}

/**
 * The environment without its secrets (isSecretVariable), and the names withheld, sorted. `passed`
 * names variables the user lets through (runCommand.passEnvironment, user settings only): exact
 * names, compared as given.
 */
export function withoutSecrets(env: Readonly<Record<string, string | undefined>>, passed: readonly string[] = []): { env: Record<string, string | undefined>; withheld: string[] } {
  const allowed = new Set(passed);
  const kept: Record<string, string | undefined> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isSecretVariable(name, value) && !allowed.has(name)) {
      withheld.push(name);
    } else {
      kept[name] = value;
    }
  }
  return { env: kept, withheld: withheld.sort() };
}
