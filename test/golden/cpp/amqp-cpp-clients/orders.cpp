#include <amqpcpp.h>
#include <string>

static const std::string kExchange = "orders";

void run(AMQP::TcpChannel &channel)
{
    channel.publish(kExchange, "order.created", "{}");
    channel.publish("", "invoices", "{}");
    channel.declareQueue("billing.orders");
    channel.bindQueue(kExchange, "billing.orders", "order.*");
    channel.consume("billing.orders").onReceived([](const AMQP::Message &, uint64_t, bool) {});
}
