import { Logger } from '@nestjs/common';
export function audit(logger: Logger, topic: string) {
  const route = "@Get('/admin')";
  logger.log(route, topic);
  logger.log('order-created-topic');
}