using Azure.Messaging.ServiceBus;

namespace Shop.Notify;

public class ServiceBusWorker
{
    private readonly ServiceBusClient _client;
    private readonly IConfiguration _configuration;

    public async Task Run()
    {
        ServiceBusSender sender = _client.CreateSender("order-emails");
        await sender.SendMessageAsync(new ServiceBusMessage("hi"));
        ServiceBusProcessor queueProcessor = _client.CreateProcessor("order-emails", new ServiceBusProcessorOptions());
        ServiceBusProcessor topicProcessor = _client.CreateProcessor(_configuration["ServiceBus:Topic"], "notify");
        ServiceBusReceiver receiver = _client.CreateReceiver(topicName: "invoices", subscriptionName: "notify");
    }
}
