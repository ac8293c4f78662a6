using Confluent.Kafka;

namespace Shop.Audit;

public class AuditProducer
{
    private readonly IProducer<string, string> _producer;
    private readonly IConfiguration _configuration;

    public Task Audit(string json) =>
        _producer.ProduceAsync(_configuration["Kafka:AuditTopic"], new Message<string, string> { Value = json });

    // The topic is the caller's: kept as written, never named after the parameter.
    public Task Forward(string topic, string json) =>
        _producer.ProduceAsync(topic, new Message<string, string> { Value = json });

    public void Listen(IConsumer<string, string> consumer) =>
        consumer.Subscribe(Environment.GetEnvironmentVariable("AUDIT_TOPIC") ?? "audit");
}
