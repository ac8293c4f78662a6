import os

import boto3
from azure.servicebus import ServiceBusClient
from google.cloud import pubsub_v1

sqs = boto3.client("sqs")
sns = boto3.client("sns")
QUEUE_URL = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders"


def send(body):
    sqs.send_message(QueueUrl=QUEUE_URL, MessageBody=body)
    url = sqs.get_queue_url(QueueName="payments")["QueueUrl"]
    sqs.receive_message(QueueUrl=url)
    sqs.receive_message(QueueUrl=os.environ["INBOX_URL"])
    sns.publish(TopicArn="arn:aws:sns:eu-west-1:123456789012:order-events", Message=body)


def gcp(project_id):
    publisher = pubsub_v1.PublisherClient()
    topic_path = publisher.topic_path(project_id, "invoices")
    publisher.publish(topic_path, b"data")
    subscriber = pubsub_v1.SubscriberClient()
    subscription_path = subscriber.subscription_path(project_id, "invoices-sub")
    subscriber.subscribe(subscription_path, callback=print)


def azure(conn_str, queue_name):
    with ServiceBusClient.from_connection_string(conn_str) as client:
        with client.get_queue_sender(queue_name="shipments") as sender:
            sender.send_messages(None)
        with client.get_subscription_receiver(topic_name="prices", subscription_name="eu") as receiver:
            print(receiver)
        client.get_queue_receiver(queue_name)
