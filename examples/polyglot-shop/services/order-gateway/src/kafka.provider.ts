import { Provider } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';

export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');

export const kafkaProducerProvider: Provider = {
  provide: KAFKA_PRODUCER,
  useFactory: async (): Promise<Producer> => {
    const kafka = new Kafka({
      clientId: 'order-gateway',
      brokers: (process.env.KAFKA_BROKERS ?? 'kafka:9092').split(','),
    });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, idempotent: true });
    await producer.connect();
    return producer;
  },
};
