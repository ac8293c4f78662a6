using RabbitMQ.AMQP.Client;
using RabbitMQ.AMQP.Client.Impl;

// RabbitMQ.AMQP.Client (AMQP 1.0): fluent publisher, consumer and binding builders.
const string exchangeName = "invoices";

IEnvironment environment = AmqpEnvironment.Create(ConnectionSettingsBuilder.Create().Build());
IConnection connection = await environment.CreateConnectionAsync();
IManagement management = connection.Management();
IExchangeSpecification exchangeSpec = management.Exchange(exchangeName).Type("topic");
await exchangeSpec.DeclareAsync();

IPublisher publisher = await connection.PublisherBuilder().Exchange(exchangeName).Key("invoice.paid").BuildAsync();
IPublisher direct = await connection.PublisherBuilder().Queue("reminders").BuildAsync();

IQueueSpecification tempQueue = management.Queue().Exclusive(true).AutoDelete(true);
IQueueInfo queueInfo = await tempQueue.DeclareAsync();
string queueName = queueInfo.Name();
await management.Binding().SourceExchange(exchangeSpec).DestinationQueue(queueName).Key("invoice.*").BindAsync();

IConsumer consumer = await connection.ConsumerBuilder()
    .Queue(queueName)
    .MessageHandler((ctx, message) => Task.CompletedTask)
    .BuildAndStartAsync();

IResponder responder = await connection.ResponderBuilder()
    .RequestQueue("invoice-rpc")
    .Handler((ctx, message) => Task.FromResult(message))
    .BuildAsync();

// A queue named at random: private to this program, it connects nothing.
string privateQueue = Guid.NewGuid().ToString();
IConsumer echo = await connection.ConsumerBuilder().Queue(privateQueue).BuildAndStartAsync();
IPublisher echoPublisher = await connection.PublisherBuilder().Queue(privateQueue).BuildAsync();
