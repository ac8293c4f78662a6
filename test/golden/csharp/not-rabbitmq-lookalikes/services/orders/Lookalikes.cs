using System.Collections.Generic;
using RabbitMQ.Client;

namespace Shop.Orders;

// Declaring queues and exchanges alone connects nothing.
public class Topology
{
    public void Declare(IModel channel)
    {
        channel.ExchangeDeclare("orders", ExchangeType.Topic);
        channel.QueueDeclare("billing", true, false, false, null);
        const string looksLikeATopic = "orders.created";
    }
}
