import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { join } from 'node:path';

import { AppModule } from './app.module';

const PROTO_DIR = process.env.PROTO_DIR ?? join(__dirname, '../../../proto');

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);

  app.connectMicroservice<MicroserviceOptions>({
    transport: Transport.GRPC,
    options: {
      package: 'shop.checkout.v1',
      protoPath: join(PROTO_DIR, 'checkout.proto'),
      loader: { includeDirs: [PROTO_DIR] },
      url: '0.0.0.0:50050',
    },
  });

  await app.startAllMicroservices();
  await app.listen(Number(process.env.PORT ?? 3000));
}

void bootstrap();
