import * as assert from 'node:assert/strict';
import { CancelledError, NEVER_CANCELLED, ToolError } from '../../../../src/core/errors';
import { diagnosticKey, formatDiagnostic, newErrorsNote, passesSeverity } from '../../../../src/core/language/diagnostics';
import { answerWithin } from '../../../../src/core/language/providerWait';
import { symbolColumn } from '../../../../src/core/language/symbolPosition';
import { applyReplacements } from '../../../../src/core/language/textReplacements';
import { fileLocation } from '../../../../src/core/location';
import type { ReportedDiagnostic } from '../../../../src/core/ports/language';
import { span } from '../../support/language';
import { ManualClock } from '../../support/fakeTime';

const problem = (line: number, message: string, severity: ReportedDiagnostic['severity'] = 'error', code?: string): ReportedDiagnostic => ({
  location: fileLocation('/ws/a.ts'),
  range: span(line, 4, 3),
  severity,
  source: 'ts',
  code,
  message,
});

describe('language', () => {
  describe('diagnostics', () => {
    it('writes path:line:col severity source(code): message, 1-based, on one line', () => {
      assert.equal(formatDiagnostic(problem(2, "Type 'number' is not assignable\n  to type 'string'.", 'error', '2322'), 'src/a.ts'), "src/a.ts:3:5 error ts(2322): Type 'number' is not assignable to type 'string'.");
    });

    it('filters by severity: error alone, warning with errors, all', () => {
      assert.deepEqual(['error', 'warning', 'information', 'hint'].map((severity) => passesSeverity(problem(0, 'x', severity as ReportedDiagnostic['severity']), 'warning')), [true, true, false, false]);
      assert.equal(passesSeverity(problem(0, 'x', 'warning'), 'error'), false);
      assert.equal(passesSeverity(problem(0, 'x', 'hint'), 'all'), true);
    });

    it('notes only errors that were not there before, in the same line form, and counts past ten', () => {
      const old = problem(0, 'old');
      const fresh = Array.from({ length: 12 }, (_, index) => problem(index + 1, `new ${index}`));
      const note = newErrorsNote('src/a.ts', new Set([diagnosticKey(old)]), [old, problem(5, 'a warning', 'warning'), ...fresh]);
      assert.equal(note[0], 'New errors reported in src/a.ts after the edit:');
      assert.equal(note[1], '  src/a.ts:2:5 error ts: new 0');
      assert.equal(note.length, 12);
      assert.match(note[11], /^ {2}\[2 more; workspace_diagnostics lists them all\]$/);
      assert.deepEqual(newErrorsNote('src/a.ts', new Set([diagnosticKey(old)]), [old]), []);
    });
  });

  describe('symbolColumn', () => {
    it('finds the first whole-word occurrence, not a longer name that contains it', () => {
      assert.equal(symbolColumn('const greeting = greet(name);', 'greet', 1, 'a.ts'), 17);
    });

    it('falls back to the first occurrence inside a word', () => {
      assert.equal(symbolColumn('greetings', 'greet', 1, 'a.ts'), 0);
    });

    it('refuses a symbol that is not on the line, showing the line', () => {
      assert.throws(() => symbolColumn('let x = 1;', 'greet', 4, 'a.ts'), (error: Error) => error instanceof ToolError && /"greet" is not on line 4 of a\.ts, which reads: "let x = 1;"/.test(error.message));
    });
  });

  describe('applyReplacements', () => {
    it('applies replacements on several lines from the end, keeping CRLF line ends', () => {
      const text = 'function greet() {}\r\ngreet();\r\nconst g = greet;\r\n';
      const after = applyReplacements(text, [{ range: span(0, 9, 5), newText: 'hello' }, { range: span(1, 0, 5), newText: 'hello' }, { range: span(2, 10, 5), newText: 'hello' }], 'a.ts');
      assert.equal(after, 'function hello() {}\r\nhello();\r\nconst g = hello;\r\n');
    });

    it('refuses a range past the end of the file', () => {
      assert.throws(() => applyReplacements('one\n', [{ range: span(5, 0, 1), newText: 'x' }], 'a.ts'), /names line 6 of a\.ts/);
    });
  });

  describe('answerWithin', () => {
    it('reports a provider that does not answer in time, by name', async () => {
      const clock = new ManualClock();
      let failed: unknown;
      answerWithin(new Promise<never>(() => undefined), 20, NEVER_CANCELLED, 'The typescript definition provider', clock).catch((error: unknown) => (failed = error));
      await clock.advance(19);
      assert.equal(failed, undefined, 'still waiting before its time');
      await clock.advance(1);
      const error = failed as unknown;
      assert.ok(error instanceof ToolError && /^The typescript definition provider did not answer within 20 ms/.test(error.message), String(error));
      assert.equal(clock.pending(), 0);
    });

    it('stops waiting when the call is cancelled', async () => {
      let cancel = (): void => undefined;
      const token = { isCancellationRequested: false, onCancellationRequested: (listener: () => void) => ((cancel = listener), { dispose: () => undefined }) };
      const clock = new ManualClock();
      const waiting = answerWithin(new Promise<never>(() => undefined), 60_000, token, 'x', clock);
      cancel();
      await assert.rejects(waiting, CancelledError);
      assert.equal(clock.pending(), 0, 'its timer is cancelled too');
    });
  });
});
