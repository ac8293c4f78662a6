import { SQSClient, SendMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { SNSClient, PublishCommand } from '@aws-sdk/client-sns';

const sqs = new SQSClient({});
const sns = new SNSClient({});
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';

export async function send(body: string): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: QUEUE_URL, MessageBody: body }));
  await sns.send(new PublishCommand({ TopicArn: process.env.ORDER_EVENTS_TOPIC_ARN, Message: body }));
  await sns.send(new PublishCommand({ TopicArn: 'arn:aws:sns:eu-west-1:123456789012:order-events', Message: body }));
}

export async function poll(): Promise<void> {
  const input = { QueueUrl: process.env.PAYMENTS_QUEUE_URL, MaxNumberOfMessages: 10 };
  await sqs.send(new ReceiveMessageCommand({ QueueUrl: process.env.PAYMENTS_QUEUE_URL, WaitTimeSeconds: 20 }));
  console.log(input);
}

export async function refund(region: string, account: string): Promise<void> {
  const url = `https://sqs.${region}.amazonaws.com/${account}/refunds`;
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: '{}' }));
  await sns.send(new PublishCommand({ TopicArn: `arn:aws:sns:${region}:${account}:refunded`, Message: '{}' }));
}
