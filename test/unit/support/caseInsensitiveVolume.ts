// A real case-insensitive volume on Linux: an exFAT image mounted with exfat-fuse. Like NTFS and APFS it
// ignores letter case and keeps the case a name was made with; unlike them it has no links and no file
// modes, and FUSE gives each spelling of a name its own dentry (and inode number), so a bind mount over
// `.git` does not cover `.GIT`. Tests that need it fail naming what is missing; they never pass without it.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface CaseInsensitiveVolume {
  /** The mounted volume's root: an empty folder that ignores letter case. */
  readonly root: string;
  unmount(): void;
}

const SYSTEM_FOLDERS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

function program(name: string, apt: string): string {
  for (const folder of [...(process.env.PATH ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry)), ...SYSTEM_FOLDERS]) {
    try {
      accessSync(path.join(folder, name), constants.X_OK);
      return path.join(folder, name);
    } catch {
      // Not in this folder.
    }
  }
  throw new Error(`This test needs ${name} for a case-insensitive volume, which is not installed. Install it (.ci/run does: apt-get install ${apt}).`);
}

function run(file: string, args: readonly string[]): string {
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** What a test on such a volume needs, for test/unit/support/platforms.ts: mount and FUSE are Linux's here. */
export const CASE_INSENSITIVE_VOLUME = 'a case-insensitive volume this process mounts (exFAT through a loop device or FUSE)';

/** The variable naming a mounted case-insensitive volume the tests may make folders in (.ci/run mounts one as root for its user). */
export const VOLUME_VARIABLE = 'WAT_CASE_INSENSITIVE_VOLUME';

/**
 * A new empty folder on a case-insensitive volume: on the one WAT_CASE_INSENSITIVE_VOLUME names,
 * else on a fresh 64 MiB exFAT volume this process mounts (as root through a loop device, as a user
 * through FUSE where the system allows it).
 */
export function mountCaseInsensitiveVolume(): CaseInsensitiveVolume {
  const given = process.env[VOLUME_VARIABLE];
  return given ? folderOn(given) : mountVolume();
}

function folderOn(volume: string): CaseInsensitiveVolume {
  const root = mkdtempSync(path.join(volume, 'wat-'));
  writeFileSync(path.join(root, 'probe'), '');
  if (!existsSync(path.join(root, 'PROBE'))) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`${VOLUME_VARIABLE} names ${volume}, which does not ignore letter case: mount an exFAT volume there (see .ci/run).`);
  }
  rmSync(path.join(root, 'probe'));
  return { root, unmount: () => rmSync(root, { recursive: true, force: true }) };
}

function mountVolume(): CaseInsensitiveVolume {
  const mkfs = program('mkfs.exfat', 'exfatprogs');
  const mountExfat = program('mount.exfat-fuse', 'exfat-fuse');
  const base = mkdtempSync(path.join(os.tmpdir(), 'wat-exfat-'));
  const image = path.join(base, 'volume.img');
  const root = path.join(base, 'volume');
  mkdirSync(root);
  writeFileSync(image, '');
  truncateSync(image, 64 * 1024 * 1024);
  run(mkfs, ['-L', 'WAT', image]);
  const asRoot = process.getuid?.() === 0;
  let loop: string | undefined;
  try {
    if (asRoot) {
      loop = run(program('losetup', 'mount'), ['--find', '--show', image]);
      run(mountExfat, [loop, root]);
    } else {
      run(mountExfat, [image, root]);
    }
  } catch (error) {
    if (loop) {
      execFileSync('losetup', ['-d', loop]);
    }
    rmSync(base, { recursive: true, force: true });
    const stderr = String((error as { stderr?: unknown }).stderr ?? error);
    throw new Error(
      `This test needs a case-insensitive volume and could not mount one with exfat-fuse: ${stderr.trim()}. ` +
        `Run the tests as root, or mount one as root and name it in ${VOLUME_VARIABLE}, as .ci/run does ` +
        '(as a normal user exfat-fuse needs FUSE 2\'s fusermount, /dev/fuse open to the user and user_allow_other in /etc/fuse.conf).',
    );
  }
  if (statSync(root).dev === statSync(base).dev) {
    throw new Error(`exfat-fuse returned but ${root} is not a mount point.`);
  }
  return {
    root,
    unmount(): void {
      try {
        if (asRoot) {
          execFileSync('umount', [root]);
          if (loop && existsSync(loop)) {
            execFileSync('losetup', ['-d', loop]);
          }
        } else {
          execFileSync(program('fusermount', 'fuse3'), ['-u', root]);
        }
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
