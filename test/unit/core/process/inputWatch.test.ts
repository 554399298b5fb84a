// The "waiting for input" detector: prompts recorded from real programs (test/fixtures/prompts),
// look-alikes that must not count, the veto of a probe that sees no reader, and the watch's timing.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CHECK_MS, InputWatch, promptOf, QUIET_MS, waitingState } from '../../../../src/core/process/inputWatch';
import type { InputReaders } from '../../../../src/core/ports/process';
import { ManualClock } from '../../support/fakeTime';

const FIXTURES = path.join(__dirname, '../../../../../test/fixtures/prompts');
const recorded = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

describe('process/inputWatch (waiting for input)', () => {
  describe('promptOf on recorded outputs', () => {
    const prompts: Array<[string, string]> = [
      ['python3-repl.txt', '>>>'],
      ['node-repl.txt', '>'],
      ['sqlite3.txt', 'sqlite>'],
      ['bash-select.txt', '#?'],
      ['python-input.txt', 'Project name:'],
      ['npm-init.txt', 'package name: (prompts)'],
    ];
    for (const [file, prompt] of prompts) {
      it(`finds the prompt of ${file}: ${prompt}`, () => {
        assert.equal(promptOf(recorded(file)), prompt);
      });
    }

    for (const file of ['lookalike-mocha-titles.txt', 'lookalike-traceback.txt', 'lookalike-git-clone-progress.txt', 'lookalike-progress-cr.txt', 'read-p-bash-pipe.txt']) {
      it(`finds no prompt in ${file}`, () => {
        assert.equal(promptOf(recorded(file)), undefined);
      });
    }
  });

  describe('promptOf on the shapes of common prompts', () => {
    const prompts: Array<[string, string]> = [
      ['Reading package lists...\nDo you want to continue? [Y/n] ', 'Do you want to continue? [Y/n]'],
      ['The authenticity of host \'h\' can\'t be established.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? ', 'Are you sure you want to continue connecting (yes/no/[fingerprint])?'],
      ['[sudo] password for ana: ', '[sudo] password for ana:'],
      ['Enter passphrase for key \'/home/a/.ssh/id_ed25519\': ', 'Enter passphrase for key \'/home/a/.ssh/id_ed25519\':'],
      ['Need to install the following packages:\n  cowsay@1.6.0\nOk to proceed? (y) ', 'Ok to proceed? (y)'],
      ['Press any key to continue . . .', 'Press any key to continue . . .'],
      ['line 1\nline 2\n--More--(45%)', '--More--(45%)'],
      ['last line\n(END)', '(END)'],
      ['irb(main):001:0> ', 'irb(main):001:0>'],
      ['Overwrite existing file? [y/N]\n', 'Overwrite existing file? [y/N]'],
      ['\u001b[32m?\u001b[39m \u001b[1mWhich framework?\u001b[22m (Use arrow keys)\n\u001b[36m❯ React\u001b[39m\n  Vue\n  Svelte', '? Which framework? (Use arrow keys)'],
      ['Saving...\rSave to file? ', 'Save to file?'],
    ];
    for (const [output, prompt] of prompts) {
      it(`finds ${JSON.stringify(prompt)}`, () => {
        assert.equal(promptOf(output), prompt);
      });
    }

    const lookalikes = [
      'Compiled successfully.\nWhat went wrong?\n',
      'INFO server: is the cache warm? yes\n',
      'Building: 3 of 10 files\n',
      'warning: unused variable `x`\n\n',
      '',
      '\n\n',
      'Fetching https://example.com/a?b=c\n',
    ];
    for (const output of lookalikes) {
      it(`finds no prompt in ${JSON.stringify(output)}`, () => {
        assert.equal(promptOf(output), undefined);
      });
    }

    it('keeps a long prompt to its end', () => {
      const prompt = promptOf(`${'x'.repeat(500)}: `);
      assert.ok(prompt?.startsWith('…') && prompt.endsWith('x:') && prompt.length <= 201);
    });
  });

  describe('waitingState', () => {
    const reading: InputReaders = { state: 'reading', program: 'python3' };
    it('needs the command quiet for 3 s', () => {
      assert.equal(waitingState('Name: ', 2999, reading, 5), undefined);
      assert.equal(waitingState('Name: ', 3000, reading, 5)?.prompt, 'Name:');
    });

    it('lets a probe that sees no reader veto a prompt-like line, and counts a prompt when the probe cannot tell', () => {
      assert.equal(waitingState('Overwrite? [y/N]\n', 5000, { state: 'none' }, 5), undefined);
      assert.deepEqual(waitingState('Overwrite? [y/N]\n', 5000, { state: 'unknown' }, 5), { prompt: 'Overwrite? [y/N]', reader: undefined, since: 5 });
    });

    it('reports a silent reader with the last line it printed, and nothing once its input is closed', () => {
      assert.deepEqual(waitingState('Starting\n', 5000, reading, 5), { prompt: '(no prompt shown; last line: Starting)', reader: 'python3', since: 5, silent: true });
      assert.equal(waitingState('', 5000, reading, 5)?.prompt, '(no prompt shown)');
      assert.equal(waitingState('Name: ', 5000, { state: 'closed' }, 5), undefined);
      assert.equal(waitingState('Building\n', 5000, { state: 'unknown' }, 5), undefined);
    });
  });

  describe('InputWatch', () => {
    it('looks only after a quiet spell, tells its listener once per change, and stops looking at the end', async () => {
      const clock = new ManualClock();
      let looks = 0;
      let readers: InputReaders = { state: 'none' };
      const watch = new InputWatch(clock, { quietMs: 30, checkMs: 10 });
      const changes: Array<string | undefined> = [];
      watch.onDidChange(() => changes.push(watch.current()?.prompt));
      watch.heard('Name: ');
      watch.watch(() => {
        looks += 1;
        return readers;
      });
      await clock.advance(29);
      assert.equal(looks, 0, 'not before the quiet spell');
      await clock.advance(1);
      assert.equal(looks, 1, 'once quiet for quietMs');
      await clock.advance(20);
      assert.equal(looks, 3, 'again every checkMs while quiet');
      assert.equal(watch.current(), undefined, 'nobody reads the input');
      readers = { state: 'reading', program: 'node' };
      await clock.advance(10);
      assert.equal(watch.current()?.prompt, 'Name:');
      assert.equal(watch.current()?.since, clock.now(), 'waiting since the look that saw it');
      watch.answered();
      assert.equal(watch.current(), undefined);
      watch.stop();
      const after = looks;
      assert.equal(clock.pending(), 0, 'no timer left after stop');
      await clock.advance(60);
      assert.equal(looks, after, 'no look after stop');
      assert.deepEqual(changes, ['Name:', undefined]);
    });

    it('does not look while the command prints', async () => {
      const clock = new ManualClock();
      let looks = 0;
      const watch = new InputWatch(clock, { quietMs: 40, checkMs: 10 });
      watch.watch(() => {
        looks += 1;
        return { state: 'reading' };
      });
      for (let i = 0; i < 6; i += 1) {
        watch.heard(`line ${i}\n`);
        await clock.advance(39);
      }
      assert.equal(looks, 0);
      await clock.advance(1);
      assert.equal(looks, 1, 'the first look comes quietMs after the last output');
      watch.stop();
    });

    it('waits QUIET_MS and looks every CHECK_MS when given no timing, as in the extension', async () => {
      const clock = new ManualClock();
      const looksAt: number[] = [];
      const watch = new InputWatch(clock);
      const start = clock.now();
      watch.watch(() => {
        looksAt.push(clock.now() - start);
        return { state: 'none' };
      });
      await clock.advance(QUIET_MS + 2 * CHECK_MS);
      assert.deepEqual(looksAt, [QUIET_MS, QUIET_MS + CHECK_MS, QUIET_MS + 2 * CHECK_MS]);
      watch.stop();
    });
  });
});
