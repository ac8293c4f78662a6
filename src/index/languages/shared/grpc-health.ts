/**
 * gRPC health checking (`grpc.health.v1.Health`) is infrastructure, not a contract between services: every
 * extractor leaves it out of the contract facts by this one rule. A service is the health service when it
 * is named `Health` (bare or package-qualified), spelled `HealthCheck`/`HealthService`/`HealthCheckService`
 * in any case (bare or under `grpc.health.v1`), or when its name comes from the generated health module
 * (`origin`: the module it was imported from, such as Python's `grpc_health.v1.health_pb2_grpc`).
 */
const HEALTH_NAME = /^(?:grpc\.health\.v1\.)?health(?:check)?(?:service)?$/i;

export function isHealthService(service: string, origin?: string): boolean {
  return (
    HEALTH_NAME.test(service) || service.endsWith('.Health') || (origin?.includes('health_pb2') ?? false)
  );
}
