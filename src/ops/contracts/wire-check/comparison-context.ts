import type { FindingRule, WireFinding } from './findings.js';
import type { LineIndex } from './line-index.js';
import type { SchemaPair } from './schema-model.js';

/**
 * What every comparison step shares: the two schemas, where their elements stand, and the findings so far.
 * A finding's line comes from the side it names, since an element that was deleted has a line only in the base.
 */
export class ComparisonContext {
  readonly findings: WireFinding[] = [];
  constructor(
    readonly pair: SchemaPair,
    private readonly headLines: LineIndex,
    private readonly baseLines: LineIndex,
  ) {}

  qualify(name: string): string {
    return this.pair.head.package ? `${this.pair.head.package}.${name}` : name;
  }

  add(
    severity: WireFinding['severity'],
    rule: FindingRule,
    element: string,
    message: string,
    key: string,
    side: 'head' | 'base',
  ): void {
    const line = (side === 'head' ? this.headLines : this.baseLines).lines.get(key);
    this.findings.push({ severity, rule, element, message, side, ...(line !== undefined ? { line } : {}) });
  }
}
