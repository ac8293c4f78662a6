/** What the wire check reports: one finding per changed element, and the rules that produce them. */

export const BREAKING_LABEL = 'WIRE_FORMAT_BREAKING_CHANGE';

export type FindingRule =
  | 'field_number_reused'
  | 'reserved_number_reused'
  | 'type_changed'
  | 'cardinality_changed'
  | 'field_deleted'
  | 'oneof_changed'
  | 'enum_number_reused'
  | 'enum_value_renumbered'
  | 'enum_value_deleted'
  | 'enum_reserved_number_reused'
  | 'rpc_removed'
  | 'rpc_changed'
  | 'package_changed'
  | 'field_renamed'
  | 'enum_value_renamed'
  | 'reserved_name_reused'
  | 'compatible_type_change'
  | 'external_type_changed'
  | 'type_removed';

export interface WireFinding {
  readonly severity: 'breaking' | 'warning';
  readonly rule: FindingRule;
  /** What changed: `shop.v1.Money.units`, `shop.v1.Status.STATUS_DONE`, `shop.v1.PaymentService/Pay`. */
  readonly element: string;
  readonly message: string;
  /** Line in the working-tree file, or in the base file when the element no longer exists (`side: 'base'`). */
  readonly line?: number;
  readonly side: 'head' | 'base';
}
