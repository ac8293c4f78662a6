/**
 * Method names as the generated clients of each language spell them reduce to one key: `ProcessPayment`
 * (Go, C#), `processPayment` (TS, Java), `process_payment` (Rust, Python), `ProcessPaymentAsync` (C#).
 * Shared by the reconciler and the operations so that both match the same way.
 */
export function methodKey(name: string): string {
  return name
    .replace(/Async$/, '')
    .replace(/_/g, '')
    .toLowerCase();
}

/**
 * Service and method names as people type them reduce to one key, case and separators aside:
 * `shipping-service`, `shippingservice`, `ShippingService`, `reserve_stock`, `Reserve Stock`.
 */
export const nameKey = (name: string): string => name.replace(/[_\s-]/g, '').toLowerCase();
