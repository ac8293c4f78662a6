const Kafka = require('node-rdkafka');

const producer = new Kafka.Producer({ 'metadata.broker.list': process.env.KAFKA_BROKERS });
const consumer = new Kafka.KafkaConsumer({ 'group.id': 'billing' }, {});

producer.on('ready', () => {
  producer.produce('invoices', null, Buffer.from('{}'));
});
consumer.on('ready', () => {
  consumer.subscribe(['orders', process.env.EXTRA_TOPIC]);
  consumer.consume();
});
