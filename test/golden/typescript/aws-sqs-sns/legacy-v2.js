const AWS = require('aws-sdk');
const { Consumer } = require('sqs-consumer');

const sqs = new AWS.SQS({ region: 'eu-west-1' });
const sns = new AWS.SNS();

exports.handler = async (event) => {
  await sqs.sendMessage({ QueueUrl: process.env.SHIPPING_QUEUE_URL, MessageBody: '{}' }).promise();
  await sns.publish({ TopicArn: 'arn:aws:sns:eu-west-1:123456789012:shipped', Message: '{}' }).promise();
  const res = await sqs.receiveMessage({ QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/returns' }).promise();
  return res;
};

Consumer.create({ queueUrl: process.env.INVOICES_QUEUE_URL, handleMessage: async () => {} }).start();
