// Redirections: `<` reads its target, every other operator writes it; duplications of a file
// descriptor (`2>&1`, `>&-`) name no file. The target is judged as a path from every folder the line may be in.
import type { Judgement } from '../../decisions';
import { HARMLESS_DEVICES, type LinePaths } from './linePaths';
import type { SyntaxNode } from './shell/bashParser';
import { shellWord } from './shell/words';

/** How one redirection fares: undefined when it names no file; `writes` when it may change a file. */
export interface RedirectJudgement {
  readonly judgement: Judgement;
  readonly writes: boolean;
}

export async function judgeRedirect(node: SyntaxNode, paths: LinePaths): Promise<RedirectJudgement | undefined> {
  const operator = node.children.filter((child): child is SyntaxNode => child !== null && !child.isNamed).map((child) => child.type).join('');
  const destinationNode = node.childForFieldName('destination');
  if (!destinationNode) {
    return { judgement: { decision: 'ask', reason: 'a redirection without a target' }, writes: false };
  }
  const destination = shellWord(destinationNode);
  const duplicates = (operator === '>&' || operator === '<&') && /^(\d+-?|-)$/.test(destination.text);
  if (duplicates || destinationNode.type === 'number' && (operator === '>&' || operator === '<&')) {
    return undefined;
  }
  const access = operator === '<' ? 'read' : 'write';
  const writes = access === 'write' && !HARMLESS_DEVICES.has(destination.text);
  const judgement = await paths.judgePath(destination, access);
  const verb = access === 'read' ? 'reads' : 'writes';
  return { judgement: judgement.decision === 'allow' ? { decision: 'allow', reason: `${verb} ${destination.text}, ${judgement.reason}` } : judgement, writes };
}
