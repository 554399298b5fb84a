// test, [ and [[ ]]: file tests and string comparisons only read. Two forms evaluate more than they
// look: `-v name` (and `-R`) evaluates an array subscript, which can run `$(...)` hidden in a
// string, and the arithmetic comparisons (-eq, -lt, ...) evaluate their operands as arithmetic
// inside [[ ]], which does the same. They ask unless both operands are plain integers.
import type { Judgement } from '../../decisions';
import { allow, ask } from './judgement';
import type { SyntaxNode } from './shell/bashParser';
import type { ShellWord } from './shell/words';

const EVALUATES_SUBSCRIPT = new Set(['-v', '-R']);
const ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INTEGER = /^[-+]?\d+$/;

const subscriptReason = (operator: string): string => `${operator} evaluates a variable name whose subscript can run commands`;
const arithmeticReason = (left: string, operator: string, right: string): string =>
  `${left} ${operator} ${right} evaluates its operands as arithmetic, which can run commands hidden in a variable`;

/** `test ...` and `[ ... ]` as commands: every word is looked at, whatever its place. */
export function judgeTestWords(name: string, args: readonly ShellWord[]): Judgement {
  for (const [index, word] of args.entries()) {
    if (!word.literal) {
      if (mayBeOperator(word) && !isOperandPlace(args, index)) {
        return ask(`${name} gets ${word.source}, which is only known when it runs and may be an operator such as -v`);
      }
      continue;
    }
    if (EVALUATES_SUBSCRIPT.has(word.text)) {
      return ask(`${name} ${subscriptReason(word.text)}`);
    }
    if (ARITHMETIC.has(word.text)) {
      const left = args[index - 1];
      const right = args[index + 1];
      const plain = (operand: ShellWord | undefined): boolean => operand !== undefined && operand.literal && INTEGER.test(operand.text);
      if (!plain(left) || !plain(right)) {
        return ask(`${name}: ${arithmeticReason(left?.source ?? '', word.text, right?.source ?? '')}`);
      }
    }
  }
  return allow(`${name} only tests`);
}

function mayBeOperator(word: ShellWord): boolean {
  return word.prefix === '' || word.prefix.startsWith('-');
}

/** A run-time word right after a unary test or a string comparison, or right before `=`, is an operand. */
function isOperandPlace(args: readonly ShellWord[], index: number): boolean {
  const before = args[index - 1];
  const after = args[index + 1];
  const operatorBefore = before?.literal === true && (/^-[a-zA-Z]$/.test(before.text) || ['=', '==', '!=', '<', '>'].includes(before.text)) && !EVALUATES_SUBSCRIPT.has(before.text) && !ARITHMETIC.has(before.text);
  const comparisonAfter = after?.literal === true && ['=', '==', '!='].includes(after.text);
  return operatorBefore || comparisonAfter;
}

/** `[[ ... ]]` and `(( ... ))` nodes of the syntax tree; undefined when nothing in it asks. */
export function judgeTestNode(node: SyntaxNode): Judgement | undefined {
  if (node.text.startsWith('((')) {
    return ask('(( )) evaluates arithmetic, which can assign variables and run commands hidden in them');
  }
  return findInTest(node);
}

function findInTest(node: SyntaxNode): Judgement | undefined {
  if (node.type === 'unary_expression') {
    const operator = node.childForFieldName('operator')?.text ?? node.child(0)?.text ?? '';
    if (EVALUATES_SUBSCRIPT.has(operator)) {
      return ask(`[[ ${subscriptReason(operator)}`);
    }
  }
  if (node.type === 'binary_expression') {
    const operator = node.childForFieldName('operator')?.text ?? '';
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (ARITHMETIC.has(operator) && !(isInteger(left) && isInteger(right))) {
      return ask(`[[ ${arithmeticReason(left?.text ?? '', operator, right?.text ?? '')}`);
    }
  }
  for (const child of node.namedChildren) {
    const found = child ? findInTest(child) : undefined;
    if (found) {
      return found;
    }
  }
  return undefined;
}

function isInteger(node: SyntaxNode | null): boolean {
  return node !== null && (node.type === 'number' || node.type === 'word') && INTEGER.test(node.text);
}
