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
export function nonInteractiveEnvironment(base: Readonly<Record<string, string | undefined>>, isWritable: (folder: string) => boolean = () => false): Record<string, string | undefined> {
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
  const searchPath = (env.PATH ?? '').split(':').filter((entry) => entry.startsWith('/') && !isWritable(entry));
  env.PATH = searchPath.length ? searchPath.join(':') : '/usr/local/bin:/usr/bin:/bin';
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
