/**
 * gRPC health checking (`grpc.health.v1.Health`) is infrastructure, not a contract between services: every
 * extractor leaves it out of the contract facts by this one rule. The standard service is named `Health`
 * (bare, as generated clients and servers name it, or package-qualified); anything declared in the
 * `grpc.health.v1` package is part of it, and so is a name taken from the generated health module (`origin`:
 * the module it was imported from, such as Python's `grpc_health.v1.health_pb2_grpc`). Other spellings
 * (`HealthCheck`, `HealthService`) are left in: a workspace may declare a real service of that name.
 */
export function isHealthService(service: string, origin?: string): boolean {
  return (
    service === 'Health' ||
    service.endsWith('.Health') ||
    service.startsWith('grpc.health.v1.') ||
    (origin?.includes('health_pb2') ?? false)
  );
}
