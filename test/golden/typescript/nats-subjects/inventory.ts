import { connect, StringCodec } from 'nats';

const SUBJECTS = { reserved: 'inventory.reserved' } as const;

export async function run(): Promise<void> {
  const nc = await connect({ servers: process.env.NATS_URL });
  const sc = StringCodec();
  nc.publish(SUBJECTS.reserved, sc.encode('{}'));
  const sub = nc.subscribe('orders.*', { queue: 'inventory' });
  for await (const m of sub) m.respond(sc.encode('ok'));
  const reply = await nc.request('pricing.quote', sc.encode('{}'), { timeout: 1000 });
  const js = nc.jetstream();
  await js.publish(`audit.${process.env.REGION ?? 'eu'}`, sc.encode('{}'));
  console.log(reply);
}
