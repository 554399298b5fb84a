// The words the Activity view and the status bar show for running background commands, and what
// the person's Send Input... types.
import * as assert from 'node:assert/strict';
import { ageOf, asksForSecret, personInput, runningDescription, summarizeRunning, waitingFirst } from '../../../../src/core/process/backgroundSummary';
import type { WaitingForInput } from '../../../../src/core/ports/process';

const NOW = 1_000_000;

function command(id: string, commandLine: string, startedAt: number, waiting?: WaitingForInput) {
  return { id, commandLine, startedAt, waitingForInput: () => waiting };
}

const prompt = (text: string, reader?: string): WaitingForInput => ({ prompt: text, reader, since: NOW - 5000 });

describe('process/backgroundSummary', () => {
  it('says how long ago in words a glance can read', () => {
    assert.equal(ageOf(NOW - 45_000, NOW), '45 s');
    assert.equal(ageOf(NOW - 3 * 60_000 - 59_000, NOW), '3 min');
    assert.equal(ageOf(NOW - 125 * 60_000, NOW), '2 h 5 min');
    assert.equal(ageOf(NOW + 5000, NOW), '0 s', 'a start in the future (clock skew) is no negative age');
  });

  it('describes a running row by its age, and a waiting one by its prompt', () => {
    assert.equal(runningDescription(command('bg1', 'sleep 60', NOW - 7000), NOW), 'running · 7 s');
    assert.equal(runningDescription(command('bg2', 'npx x', NOW - 7000, prompt('Ok to proceed? (y)')), NOW), 'waiting for input · Ok to proceed? (y)');
    const long = runningDescription(command('bg3', 'x', NOW, prompt(`${'a'.repeat(100)}\n[y/N]`)), NOW);
    assert.ok(long.length < 'waiting for input · '.length + 62, long);
    assert.ok(!long.includes('\n'), 'the prompt is shown on one line');
  });

  it('counts the running commands and the waiting ones in the status bar, with each prompt in the tooltip', () => {
    const none = summarizeRunning([], NOW);
    assert.deepEqual(none, { text: '$(terminal) 0 running', tooltip: '', waiting: 0 });

    const quiet = summarizeRunning([command('bg1', 'npm run dev', NOW - 65_000)], NOW);
    assert.equal(quiet.text, '$(terminal) 1 running');
    assert.equal(quiet.waiting, 0);
    assert.equal(quiet.tooltip, 'Background commands of the agent:\nbg1: npm run dev (1 min)\n\nClick to stop one.');

    const mixed = summarizeRunning([command('bg1', 'npm run dev', NOW - 65_000), command('bg2', 'read -p x', NOW - 9000, prompt('Continue? [y/N]', 'bash'))], NOW);
    assert.equal(mixed.text, '$(terminal) 2 running, 1 waiting for input');
    assert.equal(mixed.waiting, 1);
    assert.equal(mixed.tooltip, 'Background commands of the agent:\nbg1: npm run dev (1 min)\nbg2: read -p x (waiting for input: Continue? [y/N])\n\nClick to send input to one that waits.');
  });

  it('offers the waiting commands first, else the oldest first', () => {
    const a = command('bg1', 'a', NOW);
    const b = command('bg2', 'b', NOW, prompt('>>>'));
    const c = command('bg3', 'c', NOW);
    assert.deepEqual(waitingFirst([a, b, c]).map((x) => x.id), ['bg2', 'bg1', 'bg3']);
  });

  it('hides what is typed only for prompts that ask for a secret', () => {
    assert.equal(asksForSecret(prompt('Password:')), true);
    assert.equal(asksForSecret(prompt('Enter passphrase for key /home/u/.ssh/id_ed25519:')), true);
    assert.equal(asksForSecret(prompt('Continue? [y/N]')), false);
    assert.equal(asksForSecret(prompt('Pinned packages? [y/N]')), false, 'a word that merely starts like one');
    assert.equal(asksForSecret(undefined), false);
  });

  it('types the given text then Enter, a key alone, and refuses what is not input', () => {
    assert.deepEqual(personInput('y'), { typed: 'y\n', key: undefined });
    assert.deepEqual(personInput(''), { typed: '\n', key: undefined }, 'empty text is Enter');
    assert.deepEqual(personInput(undefined, 'ctrl-c'), { typed: '', key: 'ctrl-c' });
    assert.deepEqual(personInput('', 'ctrl-d'), { typed: '', key: 'ctrl-d' });
    assert.deepEqual(personInput('q', 'escape'), { typed: 'q\n', key: 'escape' });
    assert.match((personInput(42) as { error: string }).error, /must be a string/);
    assert.match((personInput('y', 'ctrl-z') as { error: string }).error, /one of ctrl-c, ctrl-d, escape, up, down, tab/);
    assert.match((personInput('a\0b') as { error: string }).error, /NUL/);
  });
});
