import { fileLocation } from '../../../src/core/location';
import type { WorkspaceInfo } from '../../../src/core/ports/workspace';

/** A workspace of one folder, /work/app, with home /home/dev. */
export const SINGLE_FOLDER: WorkspaceInfo = { folders: [{ name: 'app', location: fileLocation('/work/app') }], trusted: true, home: '/home/dev' };

/** A multi-root workspace: app at /work/app, lib at /src/lib. */
export const TWO_FOLDERS: WorkspaceInfo = {
  folders: [
    { name: 'app', location: fileLocation('/work/app') },
    { name: 'lib', location: fileLocation('/src/lib') },
  ],
  trusted: true,
  home: '/home/dev',
};
