import { expect, test } from 'vitest';
import { isHealthService } from '../../../src/index/languages/shared/grpc-health.js';

test('the gRPC health service is left out by one rule for every language', () => {
  for (const name of ['Health', 'grpc.health.v1.Health', 'shop.Health', 'grpc.health.v1.HealthCheck'])
    expect(isHealthService(name), name).toBe(true);
  expect(isHealthService('Watch', 'grpc_health.v1.health_pb2_grpc')).toBe(true);
  for (const name of [
    'PaymentService',
    'HealthRecords',
    'shop.HealthCheck',
    'PatientHealth',
    'HealthService',
    'HealthCheck',
  ])
    expect(isHealthService(name), name).toBe(false);
  expect(isHealthService('Inventory', 'shop.inventory_pb2_grpc')).toBe(false);
});
