#include <string>

struct Bus {
    void publish(const std::string &topic, const std::string &key, const std::string &body) {}
    void consume(const std::string &queue) {}
};

// Method names of RabbitMQ clients on a class of no RabbitMQ library.
void run(Bus &bus)
{
    bus.publish("orders", "order.created", "{}");
    bus.consume("billing.orders");
}
