import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPatchTool } from '../../../../src/core/tools/applyPatch';
import { RecordingChangeApplier } from '../../support/changeApplier';
import { testContext } from '../../support/context';
import { invokeTool } from '../../../../src/core/tools/invoke';
import { loadPatchScenarios, readTree, scenarioTitle, writeTree } from '../../support/patchCorpus';
import { writingWorkspace } from '../../support/writingWorkspace';

describe('tools/applyPatch', () => {
  describe('on the writing fixtures', () => {
    const workspace = writingWorkspace();
    const { file, bytes, withOptions, run } = workspace;

    it('adds, updates and deletes in one review and lists A, M and D', async () => {
      const patch = '*** Begin Patch\n*** Add File: added.txt\n+new\n*** Update File: crlf.txt\n@@\n alpha\n-beta\n+BETA\n*** Delete File: plain.txt\n*** End Patch';
      assert.equal(await run(applyPatchTool, { patch }), 'Success. Updated the following files:\nA added.txt\nM crlf.txt\nD plain.txt');
      assert.equal(workspace.applier.reviewed.length, 1);
      assert.equal(bytes('crlf.txt').toString('latin1'), 'alpha\r\nBETA\r\ngamma\r\n');
      assert.equal(fs.existsSync(file('plain.txt')), false);
    });

    it('changes nothing when the second file fails, and names the file and the lines', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n@@\n-one\n+ONE\n*** Update File: crlf.txt\n@@\n-delta\n+DELTA\n*** End Patch';
      await assert.rejects(run(applyPatchTool, { patch }), /In crlf\.txt, chunk 1 of 1 \(patch line 7\): these lines were not found:\n  delta/);
      assert.equal(workspace.applier.reviewed.length, 0);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('applies a patch with format slips it can read one way, and says what it tolerated', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n@@\none\n-two\n+TWO';
      assert.equal(
        await run(applyPatchTool, { patch }),
        [
          'Success. Updated the following files:',
          'M plain.txt',
          'The patch was read leniently:',
          '- The patch had no "*** End Patch" line; it was read to its last line.',
          '- Line 4 ("one") had no leading " ", "-" or "+"; it was read as an unchanged line.',
        ].join('\n'),
      );
      assert.equal(bytes('plain.txt').toString(), 'one\nTWO\nthree\n');
    });

    it('says when a chunk matched only with other indentation and its added lines were re-indented', async () => {
      fs.writeFileSync(file('m.py'), 'class A:\n    def f(self):\n        return 1\n');
      const patch = '*** Begin Patch\n*** Update File: m.py\n@@\n def f(self):\n-    return 1\n+    x = 2\n+    return x\n*** End Patch';
      assert.equal(
        await run(applyPatchTool, { patch }),
        'Success. Updated the following files:\nM m.py\nThe patch was read leniently:\n- m.py, chunk 1: its lines were found ignoring indentation; its added lines were re-indented to the file.',
      );
      assert.equal(bytes('m.py').toString(), 'class A:\n    def f(self):\n        x = 2\n        return x\n');
    });

    it('moves onto an existing file, replacing its content: a change of that file and a deletion, both reviewed as one', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n*** Move to: crlf.txt\n@@\n-one\n+ONE\n*** End Patch';
      assert.equal(await run(applyPatchTool, { patch }), 'Success. Updated the following files:\nM crlf.txt\nD plain.txt\nplain.txt was moved onto crlf.txt, which existed: its content was replaced.');
      assert.equal(bytes('crlf.txt').toString(), 'ONE\ntwo\nthree\n');
      assert.equal(fs.existsSync(file('plain.txt')), false);
      const [review] = workspace.applier.reviewed;
      assert.deepEqual(review.files.map((change) => [change.kind, change.shownPath]), [['modify', 'crlf.txt'], ['delete', 'plain.txt']]);
      assert.equal(Buffer.from(review.files[0].before?.bytes ?? []).toString(), 'alpha\r\nbeta\r\ngamma\r\n', 'the review shows what is replaced');
    });

    it('refuses to move onto a directory', async () => {
      fs.mkdirSync(file('folder'));
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n*** Move to: folder\n@@\n-one\n+ONE\n*** End Patch';
      await assert.rejects(run(applyPatchTool, { patch }), /Move to: folder" names a directory/);
      assert.equal(bytes('plain.txt').toString(), 'one\ntwo\nthree\n');
    });

    it('moves a file and reports it under its new path', async () => {
      const patch = '*** Begin Patch\n*** Update File: plain.txt\n*** Move to: moved/plain.txt\n@@\n-one\n+ONE\n*** End Patch';
      assert.equal(await run(applyPatchTool, { patch }), 'Success. Updated the following files:\nM moved/plain.txt');
      assert.equal(fs.existsSync(file('plain.txt')), false);
      assert.equal(bytes('moved/plain.txt').toString(), 'ONE\ntwo\nthree\n');
    });

    describe('a patch that deletes five files', () => {
      const names = ['d1', 'd2', 'd3', 'd4', 'd5'];
      const patch = `*** Begin Patch\n${names.map((name) => `*** Delete File: ${name}`).join('\n')}\n*** End Patch`;
      beforeEach(() => names.forEach((name) => fs.writeFileSync(file(name), name)));

      it('is denied through file.apply_patch_delete_many at the low level', async () => {
        withOptions({ settings: { riskLevel: 'low' } });
        await assert.rejects(run(applyPatchTool, { patch }), /Denied by file\.apply_patch_delete_many: The patch deletes 5 files/);
      });

      it('asks through file.apply_patch_delete_many at the default level', async () => {
        await run(applyPatchTool, { patch });
        assert.match(workspace.applier.reviewed[0].files[0].alwaysAsk ?? '', /file\.apply_patch_delete_many/);
      });
    });

    it('deletes a binary file', async () => {
      fs.writeFileSync(file('blob.bin'), Buffer.from([0, 1, 2, 0]));
      await run(applyPatchTool, { patch: '*** Begin Patch\n*** Delete File: blob.bin\n*** End Patch' });
      assert.equal(fs.existsSync(file('blob.bin')), false);
    });

    it('is refused in an untrusted workspace, like the other writing tools', async () => {
      withOptions({ workspace: { trusted: false } });
      await assert.rejects(invokeTool(applyPatchTool, { patch: '*** Begin Patch\n*** Add File: b.txt\n+x\n*** End Patch' }, workspace.ctx), /not trusted \(Restricted Mode\)/);
      assert.equal(workspace.applier.reviewed.length, 0);
    });
  });

  describe('the public apply_patch scenarios (codex fixture corpus)', () => {
    const scenarios = loadPatchScenarios();
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'wat-patch-tool-'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    for (const scenario of scenarios) {
      it(scenarioTitle(scenario), async () => {
        writeTree(root, scenario.input);
        const applier = new RecordingChangeApplier(true);
        const outcome = invokeTool(applyPatchTool, { patch: scenario.patch }, testContext({ root, changes: applier }));
        if (scenario.expectError) {
          await assert.rejects(outcome, /./);
          assert.equal(applier.reviewed.length, 0);
        } else {
          await outcome;
        }
        assert.deepEqual(readTree(root), scenario.expected);
      });
    }
  });
});
