/**
 * Shortest request chains over the flow graph (calls, and contracts between services): from one declaration
 * to another, or from the entry points of a service down to a declaration. Both walk upstream from the end
 * of the chain, level by level, so a chain is never longer than needed and every shortest one can be listed.
 */
import type { Confidence } from '../../index/reader.js';
import { weaker } from '../shared/confidence.js';
import { flowKey, type FlowGraph, type FlowNode, type FlowStep } from '../shared/flow-graph.js';

/** Nodes in request order; `steps[i]` links `nodes[i]` to `nodes[i + 1]`. */
export interface Chain {
  readonly nodes: readonly FlowNode[];
  readonly steps: readonly FlowStep[];
}

export const chainConfidence = (chain: Chain): Confidence =>
  chain.steps.reduce<Confidence>((weakest, step) => weaker(weakest, step.confidence), 'exact');

interface Downstream {
  readonly next: FlowNode;
  readonly step: FlowStep;
}

/**
 * Every node that reaches `goal` within `maxDepth` steps, with its distance and the steps that lead one step
 * closer (only those on shortest chains). Stops at the level where `stopAt` is reached.
 */
function upstreamLevels(
  flow: FlowGraph,
  goal: FlowNode,
  maxDepth: number,
  keep: (node: FlowNode) => boolean,
  stopAt: string,
): Map<string, Downstream[]> {
  const distance = new Map<string, number>([[flowKey(goal), 0]]);
  const toward = new Map<string, Downstream[]>();
  let level: FlowNode[] = [goal];
  for (let d = 1; d <= maxDepth && level.length > 0 && !distance.has(stopAt); d++) {
    const next: FlowNode[] = [];
    for (const node of level) {
      for (const up of flow.upstream(node)) {
        const key = flowKey(up.node);
        if (!keep(up.node)) continue;
        const known = distance.get(key);
        if (known !== undefined && known < d) continue;
        if (known === undefined) {
          distance.set(key, d);
          next.push(up.node);
        }
        const list = toward.get(key);
        if (list) list.push({ next: node, step: up.step });
        else toward.set(key, [{ next: node, step: up.step }]);
      }
    }
    level = next;
  }
  return toward;
}

/** Shortest chains from `start` to `goal`, at most `cap`, in a stable order. */
export function chainsBetween(
  flow: FlowGraph,
  start: FlowNode,
  goal: FlowNode,
  options: { maxDepth: number; cap: number; keep: (node: FlowNode) => boolean },
): Chain[] {
  const goalKey = flowKey(goal);
  const toward = upstreamLevels(flow, goal, options.maxDepth, options.keep, flowKey(start));
  const chains: Chain[] = [];
  const extend = (nodes: FlowNode[], steps: FlowStep[]): void => {
    const last = nodes[nodes.length - 1] as FlowNode;
    if (flowKey(last) === goalKey) {
      chains.push({ nodes: [...nodes], steps: [...steps] });
      return;
    }
    for (const { next, step } of toward.get(flowKey(last)) ?? []) {
      if (chains.length >= options.cap) return;
      nodes.push(next);
      steps.push(step);
      extend(nodes, steps);
      nodes.pop();
      steps.pop();
    }
  };
  if (toward.has(flowKey(start))) extend([start], []);
  return chains;
}

/**
 * From each entry point that reaches `target` through calls, the shortest chain: its contract, the entry
 * point, the calls down to `target`. Entry points are listed nearest first; contracts are not crossed.
 */
export function chainsFromEntryPoints(
  flow: FlowGraph,
  target: FlowNode,
  options: { maxDepth: number; keep: (node: FlowNode) => boolean },
): Chain[] {
  const parent = new Map<string, Downstream>();
  const seen = new Set<string>([flowKey(target)]);
  const chains: Chain[] = [];
  const chainDown = (entry: FlowNode): Chain => {
    const nodes = [entry];
    const steps: FlowStep[] = [];
    for (let link = parent.get(flowKey(entry)); link; link = parent.get(flowKey(link.next))) {
      nodes.push(link.next);
      steps.push(link.step);
    }
    return { nodes, steps };
  };
  let level: FlowNode[] = [target];
  for (let d = 0; d <= options.maxDepth && level.length > 0; d++) {
    const next: FlowNode[] = [];
    for (const node of level) {
      const upstream = flow.upstream(node);
      for (const up of upstream) {
        if (up.node.kind !== 'contract') continue;
        const down = chainDown(node);
        chains.push({ nodes: [up.node, ...down.nodes], steps: [up.step, ...down.steps] });
      }
      if (d === options.maxDepth) continue;
      for (const up of upstream) {
        const key = flowKey(up.node);
        if (up.node.kind !== 'code' || seen.has(key) || !options.keep(up.node)) continue;
        seen.add(key);
        parent.set(key, { next: node, step: up.step });
        next.push(up.node);
      }
    }
    level = next;
  }
  return chains;
}
