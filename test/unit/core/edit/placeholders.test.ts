// Omission placeholders a write, edit or patch would add are refused (issue 23, item 4); the ones
// the file already has are its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { introducedPlaceholders, placeholderKey } from '../../../../src/core/edit/placeholders';
import { applyPatchTool } from '../../../../src/core/tools/applyPatch';
import { editFileTool } from '../../../../src/core/tools/editFile';
import { writeFileTool } from '../../../../src/core/tools/writeFile';
import { writingWorkspace } from '../../support/writingWorkspace';

describe('edit/placeholders', () => {
  describe('what a placeholder is', () => {
    for (const line of [
      '// ... rest of the code ...', '    // ... existing code ...', '// ...existing code...', '# existing code unchanged', '/* ... */', '{/* ... */}',
      '<!-- rest of file -->', '<!-- ... -->', '// rest of the code remains the same', '# ... other methods ...', '// keep existing code', '-- ... rest of the function ...',
      '// Rest of implementation here', '# code omitted', '    # ...', '; ... same as before', '// unchanged',
    ]) {
      it(`is: ${line}`, () => assert.notEqual(placeholderKey(line), undefined));
    }
    for (const line of [
      '// TODO: handle the rest of the cases', '// rest of the code handles errors', '# Other methods', '// Existing functions', '# more tests', '//', '/* */', '...',
      'return ...', 'x = ...  # type: ignore', '// Loading...', '# see the docs...', "console.log('...')", '// ---------', '# rest', 'rest of the code',
    ]) {
      it(`is not: ${line}`, () => assert.equal(placeholderKey(line), undefined));
    }
  });

  it('counts only the placeholders the new text adds, line by line', () => {
    assert.deepEqual(introducedPlaceholders('a\n// ...\nb\n', 'a\n// ...\nb\nc\n'), []);
    assert.deepEqual(introducedPlaceholders('a\n// ...\nb\n', 'a\n// ...\nb\n  // ...\n'), [{ line: 4, text: '// ...' }]);
  });

  describe('in the tools', () => {
    const workspace = writingWorkspace();
    const { file, bytes, run, read } = workspace;

    it('write_file refuses content that adds a placeholder, says to send the full text, and writes nothing', async () => {
      fs.writeFileSync(file('code.js'), 'one();\ntwo();\n');
      await read('code.js');
      await assert.rejects(run(writeFileTool, { file_path: 'code.js', content: 'one();\n// ... rest of the code ...\n' }), /omission placeholder.*line 2: \/\/ \.\.\. rest of the code \.\.\..*Send the full text/s);
      assert.equal(bytes('code.js').toString(), 'one();\ntwo();\n');
      await assert.rejects(run(writeFileTool, { file_path: 'new.py', content: 'def f():\n    # existing code unchanged\n' }), /omission placeholder/);
      assert.equal(fs.existsSync(file('new.py')), false);
    });

    it('edit_file refuses a new_string that adds one, and accepts one already in the file or in old_string', async () => {
      fs.writeFileSync(file('code.ts'), 'function f() {\n  // ... rest of the code ...\n  return 1;\n}\n');
      await assert.rejects(run(editFileTool, { file_path: 'code.ts', old_string: '  return 1;', new_string: '  /* ... */\n  return 2;' }), /new_string would write an omission placeholder/);
      assert.match(await run(editFileTool, { file_path: 'code.ts', old_string: '  // ... rest of the code ...\n  return 1;', new_string: '  // ... rest of the code ...\n  return 2;' }), /^Edited code\.ts/);
      assert.equal(bytes('code.ts').toString(), 'function f() {\n  // ... rest of the code ...\n  return 2;\n}\n');
    });

    it('apply_patch refuses a chunk or an added file that adds one', async () => {
      fs.writeFileSync(file('code.py'), 'def f():\n    return 1\n');
      const patch = ['*** Begin Patch', '*** Update File: code.py', ' def f():', '-    return 1', '+    # ... existing code ...', '+    return 2', '*** End Patch'].join('\n');
      await assert.rejects(run(applyPatchTool, { patch }), /The patch would write an omission placeholder into code\.py/);
      assert.equal(bytes('code.py').toString(), 'def f():\n    return 1\n');
      await assert.rejects(run(applyPatchTool, { patch: ['*** Begin Patch', '*** Add File: added.js', '+// ...', '*** End Patch'].join('\n') }), /omission placeholder/);
    });

    it('leaves documentation alone: its code samples elide on purpose', async () => {
      assert.match(await run(writeFileTool, { file_path: 'notes.md', content: '```js\n// ... rest of the code ...\n```\n' }), /^Created notes\.md/);
    });
  });
});
