import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
import { EventEmitter } from 'node:events';

// Other AWS commands, and objects with the same method names, are not queues or topics.
const s3 = new S3Client({});
const bus = new EventEmitter();

export async function store(body: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: 'orders', Key: 'a', Body: body }));
  bus.on('message', () => {});
  const sender = { createSender: (q: string) => q };
  sender.createSender('invoices');
}
