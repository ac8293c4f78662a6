export async function publish(producer: Producer) {
  await producer.send({ topic: Topics.SHIPPED, messages: [] });
  await producer.send({ topic: LEGACY, messages: [] });
}
enum Topics { SHIPPED = 'order-shipped' }
const LEGACY = `${'legacy'}.orders`;