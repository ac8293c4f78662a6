/** The rows of a diff's impact and what fails a check: shared by the walk and the calls it lists. */
import type { Confidence, DeclRef } from '../../../index/reader.js';

export type DiffScope = 'same service' | 'cross-service';

export interface DiffRow {
  readonly hop: number;
  readonly scope: DiffScope;
  readonly service: string;
  /** The function reached, or the contract role and element (`client OrderService.create`, `topic t`). */
  readonly subject: string;
  /** Workspace-relative `path:line`, or `—` for a topic. */
  readonly location: string;
  readonly confidence: Confidence;
  readonly via: string;
  /** The changes reaching it, e.g. "changed `server.Charge`", "wire-breaking `shop.v1.Money.units`". */
  readonly why: readonly string[];
}

/** Something the diff removes while code still uses it: what fails a check. */
export interface StillUsed {
  readonly what: string;
  readonly users: number;
}

export interface DiffRows {
  readonly rows: readonly DiffRow[];
  readonly stillUsed: readonly StillUsed[];
  readonly testRowsLeftOut: number;
  /** The handlers of the contracts walked: tests calling them test the change too. */
  readonly handlers: readonly DeclRef[];
  /** Changed declarations beyond the walk budget, listed among the changes but not walked. */
  readonly notWalked: number;
}
