import { ClientGrpcProxy } from '@nestjs/microservices';
import { join } from 'node:path';
import { lastValueFrom, Observable } from 'rxjs';

interface ReserveStockRequest {
  orderId: string;
  items: { sku: string; quantity: number }[];
}

interface ReserveStockResponse {
  orderId: string;
  status: number;
}

interface InventoryServiceClient {
  reserveStock(request: ReserveStockRequest): Observable<ReserveStockResponse>;
}

const RESERVED = 1;

// Runs against the docker-compose stack: seeds a reservation so order creation sees stock.
describe('OrderService against a live inventory', () => {
  let inventory: InventoryServiceClient;

  beforeAll(() => {
    const client = new ClientGrpcProxy({
      package: 'shop.inventory.v1',
      protoPath: join(__dirname, '../../../../proto/inventory.proto'),
      url: process.env.INVENTORY_GRPC_ADDR ?? 'localhost:50052',
    });
    inventory = client.getService<InventoryServiceClient>('InventoryService');
  });

  it('reserves stock for a seeded order', async () => {
    const request = { orderId: 'spec-order-1', items: [{ sku: 'SKU-TEA-001', quantity: 1 }] };
    const response = await lastValueFrom(inventory.reserveStock(request));
    expect(response.status).toBe(RESERVED);
  });
});
