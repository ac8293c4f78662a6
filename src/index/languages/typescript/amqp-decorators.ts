/**
 * `@golevelup/nestjs-rabbitmq` handlers: `@RabbitSubscribe({ exchange, routingKey, queue })` (and
 * `@RabbitRPC`) consume from `queue`, bound to `exchange` with `routingKey` (a string or a list). Its
 * `AmqpConnection.publish(exchange, routingKey, msg)` is a row of the broker table.
 */
import { topicFact } from './event-facts.js';
import type { DecoratorInfo, FileState } from './model.js';
import { itemsOf, topicName } from './topic-names.js';
import type { Val } from './values.js';

const MODULE = '@golevelup/nestjs-rabbitmq';

export function rabbitHandler(
  state: FileState,
  d: DecoratorInfo,
  target: { readonly symbol: number; readonly line: number },
): void {
  const options = d.args[0];
  if (options?.k !== 'obj') return;
  const exchange = options.props.get('exchange');
  const queue = options.props.get('queue');
  const keys = options.props.get('routingKey');
  state.pending.push((out) => {
    if (![...state.importBindings.values()].some((b) => b.source === MODULE)) return;
    const site = { symbol: target.symbol, line: target.line, locals: () => undefined };
    const via = `@${d.name}`;
    const queueName = queue === undefined ? undefined : topicName(queue, state.tables)?.value;
    const named = queueName === undefined || queueName === '' ? {} : { queue: queueName };
    if (exchange === undefined) {
      if (queue !== undefined)
        out.addContract(topicFact(state, 'topic_consumer', 'amqp', { val: queue, text: 'queue' }, via, site));
      return;
    }
    const list: readonly (Val | undefined)[] =
      keys === undefined ? [undefined] : (itemsOf(keys, state.tables) ?? [keys]);
    for (const key of list) {
      const routing = key === undefined ? undefined : topicName(key, state.tables)?.value;
      out.addContract(
        topicFact(state, 'topic_consumer', 'amqp', { val: exchange, text: 'exchange' }, via, site, false, {
          ...(routing === undefined || routing === '' ? {} : { routingKey: routing }),
          ...named,
        }),
      );
    }
  });
}
