import { RpcClient } from './rpc';

const rpc = new RpcClient();

export async function call(): Promise<void> {
  await rpc.invoker.invoke('order-processor', 'orders', 'POST');
  rpc.invoker.listen('refunds', async () => undefined);
}
