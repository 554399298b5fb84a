import * as assert from 'node:assert/strict';
import { optionTable, parseOptions, valuesOfKind, type ParseOutcome } from '../../../../../src/core/guard/command/options';
import type { ShellWord } from '../../../../../src/core/guard/command/shell/words';

/** Literal words, as the shell gives them after quote removal. */
function words(...texts: string[]): ShellWord[] {
  return texts.map((text) => ({ text, source: text, literal: true, expands: false, prefix: text }));
}

/** A word whose value is only known at run time, with the literal text before the dynamic part. */
function dynamic(source: string, prefix: string): ShellWord {
  return { text: source, source, literal: false, expands: false, prefix };
}

const TABLE = optionTable('abn:f@u', 'lines= file=@ color? quiet', { '-o': 'writes a file', '--output': 'writes a file' });

function parsed(outcome: ParseOutcome): { options: string[]; values: string[]; operands: string[] } {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.judgement.reason);
  return {
    options: outcome.parsed.options.map((option) => option.name),
    values: outcome.parsed.options.flatMap((option) => option.values.map((value) => value.text)),
    operands: outcome.parsed.operands.map((word) => word.text),
  };
}

function asks(outcome: ParseOutcome, pattern: RegExp): void {
  assert.ok(!outcome.ok, 'expected the parse to ask');
  assert.equal(outcome.judgement.decision, 'ask');
  assert.match(outcome.judgement.reason, pattern);
}

describe('guard/command/options', () => {
  it('splits clustered short flags', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('-ab', 'x'))), { options: ['-a', '-b'], values: [], operands: ['x'] });
  });

  it('reads an attached short value, and the rest of a cluster as the value', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('-n5'))).values, ['5']);
    // -u is a flag and -f takes a value: -uf.env is -u -f .env.
    const result = parseOptions('p', TABLE, words('-uf.env'));
    assert.deepEqual(parsed(result).options, ['-u', '-f']);
    assert.ok(result.ok);
    assert.deepEqual(valuesOfKind(result.parsed, 'path').map((word) => word.text), ['.env']);
  });

  it('takes a short value from the next word', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('-n', '-a', 'x'))), { options: ['-n'], values: ['-a'], operands: ['x'] });
  });

  it('reads --long=value and --long value for required values', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('--lines=3', '--file', 'list'))).values, ['3', 'list']);
  });

  it('attaches optional long values only with =', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('--color', 'never'))), { options: ['--color'], values: [], operands: ['never'] });
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('--color=never'))).values, ['never']);
  });

  it('ends options at --, and keeps a lone - as an operand', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('-a', '--', '-b', '-'))), { options: ['-a'], values: [], operands: ['-b', '-'] });
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('-', '-a'))).operands, ['-']);
  });

  it('permutes like GNU: options after operands still count', () => {
    assert.deepEqual(parsed(parseOptions('p', TABLE, words('x', '-a', 'y'))), { options: ['-a'], values: [], operands: ['x', 'y'] });
    asks(parseOptions('p', TABLE, words('x', '-o', 'out')), /p -o writes a file/);
  });

  it('stops at the first operand without permutation', () => {
    const table = optionTable('a', '', {}, { permute: false });
    assert.deepEqual(parsed(parseOptions('p', table, words('-a', 'cmd', '-z'))).operands, ['cmd', '-z']);
  });

  it('refuses abbreviations of long options and names the unknown option', () => {
    asks(parseOptions('p', TABLE, words('--lin=3')), /p --lin is not an option/);
    asks(parseOptions('p', TABLE, words('--out=x')), /--out is not an option/);
    asks(parseOptions('p', TABLE, words('--qu')), /--qu is not an option/);
    asks(parseOptions('p', TABLE, words('-az')), /p -z \(in -az\) is not an option/);
  });

  it('asks for options listed as asking, in any spelling', () => {
    asks(parseOptions('p', TABLE, words('-ao', 'x')), /writes a file/);
    asks(parseOptions('p', TABLE, words('-aox')), /writes a file/);
    asks(parseOptions('p', TABLE, words('--output=x')), /writes a file/);
  });

  it('asks when a flag is given a value or a value is missing', () => {
    asks(parseOptions('p', TABLE, words('--quiet=1')), /takes no value/);
    asks(parseOptions('p', TABLE, words('-n')), /missing its value/);
  });

  it('reads the obsolete -NUM form only where the table allows it', () => {
    const head = optionTable('n:', '', {}, { numericOption: /^-\d+$/ });
    assert.deepEqual(parsed(parseOptions('head', head, words('-20', 'f'))).operands, ['f']);
    asks(parseOptions('p', TABLE, words('-20')), /-2 \(in -20\) is not an option/);
  });

  it('asks for a run-time word that may be an option, but not for one whose known start rules it out', () => {
    asks(parseOptions('p', TABLE, [dynamic('"$x"', '')]), /may be an option/);
    asks(parseOptions('p', TABLE, [dynamic('-a"$x"', '-a')]), /may be an option/);
    assert.deepEqual(parsed(parseOptions('p', TABLE, [dynamic('-n"$N"', '-n')])).options, ['-n']);
    assert.deepEqual(parsed(parseOptions('p', TABLE, [dynamic('x"$y"', 'x')])).operands, ['x"$y"']);
    assert.deepEqual(parsed(parseOptions('p', TABLE, [...words('--'), dynamic('"$x"', '')])).operands, ['"$x"']);
  });

  it('asks for a brace expansion that can become an option', () => {
    const brace: ShellWord = { text: '{-o,x}', source: '{-o,x}', literal: true, expands: true, prefix: '{-o,x}' };
    asks(parseOptions('p', TABLE, [brace]), /may be an option/);
  });

  it('takes two values for options that need them', () => {
    const table = { ...TABLE, long: { ...TABLE.long, rawfile: { value: 'required' as const, kinds: ['inert', 'path'] as const } } };
    const result = parseOptions('jq', table, words('--rawfile', 'name', 'file.txt', '.'));
    assert.ok(result.ok);
    assert.deepEqual(valuesOfKind(result.parsed, 'path').map((word) => word.text), ['file.txt']);
    assert.deepEqual(result.parsed.operands.map((word) => word.text), ['.']);
  });
});
