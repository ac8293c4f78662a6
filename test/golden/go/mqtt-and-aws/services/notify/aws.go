package notify

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go/service/sns"
)

const queueURL = "https://sqs.eu-west-1.amazonaws.com/123456789012/notifications"

func send(ctx context.Context, client *sqs.Client) error {
	_, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queueURL), MessageBody: aws.String("{}")})
	return err
}

func receive(ctx context.Context, client *sqs.Client) error {
	url := os.Getenv("EMAIL_QUEUE_URL")
	_, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
	return err
}

func announce(svc *sns.SNS) error {
	_, err := svc.Publish(&sns.PublishInput{
		TopicArn: aws.String("arn:aws:sns:eu-west-1:123456789012:user-signed-up"),
		Message:  aws.String("{}"),
	})
	return err
}
