#include <SimpleAmqpClient/SimpleAmqpClient.h>

void run(AmqpClient::Channel::ptr_t channel)
{
    channel->BasicPublish("reports", "report.ready", AmqpClient::BasicMessage::Create("{}"));
    channel->BasicConsume("report-requests");
}
