export { methodKey } from '../../core/contract-names.js';

/** `shop.payment.v1.PaymentService` → `PaymentService`; `PaymentServiceClient` stays as written. */
export const bareName = (qualified: string): string => qualified.split('.').pop() ?? qualified;

export const serviceKey = (name: string): string => bareName(name).toLowerCase();

/** The health-check service every gRPC server registers: never a contract between services. */
export function isHealthService(service: string, protoPackage?: string): boolean {
  const bare = bareName(service);
  if (protoPackage !== undefined) return protoPackage === 'grpc.health.v1' && bare === 'Health';
  return service === 'grpc.health.v1.Health' || bare === 'Health' || bare === 'HealthCheck';
}

/**
 * HTTP paths compared segment by segment, parameters as wildcards: `/orders/{id}` and `/orders/{orderId}`
 * are the same route.
 */
export function routeShape(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{[^}]*\}$/.test(segment) ? '{}' : segment.toLowerCase()))
    .join('/');
}

/** A placeholder `${key}` or `${key:default}`; returns the key and default, or undefined. */
export function placeholderOf(value: string): { key: string; fallback?: string } | undefined {
  const match = /^\$\{([^}:]+)(?::([^}]*))?\}$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  return match[2] !== undefined ? { key: match[1], fallback: match[2] } : { key: match[1] };
}
