/// <reference lib="dom" />
/**
 * Reads the laid-out topology page back from cytoscape (node boxes, each edge as the polyline it is drawn
 * along, edge label boxes) and finds what makes a drawing unreadable: overlapping nodes, an edge passing
 * through a node that is not its end, a label on a node.
 */
import type { Page } from 'playwright-core';

export interface Box {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}
export interface Point {
  readonly x: number;
  readonly y: number;
}
export interface DrawnNode {
  readonly id: string;
  readonly label: string;
  readonly box: Box;
}
export interface DrawnEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  /** From the source border to the target border; null where cytoscape could not place an end. */
  readonly points: readonly (Point | null)[];
  readonly labelBox: Box | null;
}
export interface Drawing {
  readonly nodes: readonly DrawnNode[];
  readonly edges: readonly DrawnEdge[];
}

interface CyElement {
  id(): string;
  data(key: string): unknown;
  source(): CyElement;
  target(): CyElement;
  boundingBox(options: Record<string, boolean>): Box;
  sourceEndpoint(): Point;
  targetEndpoint(): Point;
  segmentPoints(): Point[] | undefined;
  controlPoints(): Point[] | undefined;
}
interface Cy {
  nodes(): { map<T>(f: (n: CyElement) => T): T[] };
  edges(): { map<T>(f: (e: CyElement) => T): T[] };
}

/** The drawing as cytoscape laid it out (bezier edges, as older pages drew them, sampled along the curve). */
export async function readDrawing(page: Page): Promise<Drawing> {
  return page.evaluate(() => {
    const cy = (window as unknown as { meshlensGraph: Cy }).meshlensGraph;
    const valid = (p: Point | undefined): Point | null =>
      p && Number.isFinite(p.x) && Number.isFinite(p.y) ? { x: p.x, y: p.y } : null;
    const curve = (start: Point, control: Point, end: Point): Point[] =>
      Array.from({ length: 15 }, (_, i) => {
        const t = (i + 1) / 16;
        const u = 1 - t;
        return {
          x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
          y: u * u * start.y + 2 * u * t * control.y + t * t * end.y,
        };
      });
    return {
      nodes: cy.nodes().map((n) => ({
        id: n.id(),
        label: String(n.data('label')),
        box: n.boundingBox({ includeLabels: false, includeOverlays: false }),
      })),
      edges: cy.edges().map((e) => {
        const start = valid(e.sourceEndpoint());
        const end = valid(e.targetEndpoint());
        const bends = e.segmentPoints();
        const controls = e.controlPoints();
        const middle =
          bends ??
          (controls?.length === 1 && start && end && controls[0]
            ? curve(start, controls[0], end)
            : controls) ??
          [];
        const label = e.data('label');
        return {
          id: e.id(),
          source: e.source().id(),
          target: e.target().id(),
          points: [start, ...middle.map(valid), end],
          labelBox: label
            ? e.boundingBox({
                includeNodes: false,
                includeEdges: false,
                includeLabels: true,
                includeMainLabels: true,
                includeSourceLabels: false,
                includeTargetLabels: false,
                includeOverlays: false,
              })
            : null,
        };
      }),
    };
  });
}

const shrink = (b: Box, by: number): Box => ({ x1: b.x1 + by, y1: b.y1 + by, x2: b.x2 - by, y2: b.y2 - by });
const overlap = (a: Box, b: Box): boolean => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

/** Whether the segment from a to b enters the box (Liang-Barsky clipping). */
export function segmentCrossesBox(a: Point, b: Point, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - box.x1],
    [dx, box.x2 - a.x],
    [-dy, a.y - box.y1],
    [dy, box.y2 - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

/** Everything unreadable in the drawing, one line each (empty: readable). Boxes are shrunk by 1px of slack. */
export function readabilityProblems(drawing: Drawing): string[] {
  const problems: string[] = [];
  const name = new Map(drawing.nodes.map((n) => [n.id, n.label]));
  drawing.nodes.forEach((a, i) => {
    for (const b of drawing.nodes.slice(i + 1))
      if (overlap(shrink(a.box, 1), shrink(b.box, 1)))
        problems.push(`nodes overlap: ${a.label} and ${b.label}`);
  });
  for (const edge of drawing.edges) {
    const title = `edge ${edge.id} (${name.get(edge.source)} -> ${name.get(edge.target)})`;
    if (edge.points.some((p) => p === null)) {
      problems.push(`${title} cannot be drawn`);
      continue;
    }
    const points = edge.points as Point[];
    const last = points.length - 2;
    for (let i = 0; i <= last; i++)
      for (const node of drawing.nodes) {
        // The first segment starts on the source's border, the last ends on the target's.
        if ((node.id === edge.source && i === 0) || (node.id === edge.target && i === last)) continue;
        if (segmentCrossesBox(points[i] as Point, points[i + 1] as Point, shrink(node.box, 1)))
          problems.push(`${title} crosses ${node.label}`);
      }
    if (edge.labelBox)
      for (const node of drawing.nodes)
        if (overlap(shrink(edge.labelBox, 1), node.box))
          problems.push(`${title}: its label covers ${node.label}`);
  }
  return [...new Set(problems)];
}
