using System.Text.Json;
using Confluent.Kafka;

namespace Accounting;

public sealed record InvoiceIssued(string InvoiceId, string OrderId, string CustomerId, string Currency, long TotalUnits);

/// <summary>Books a receivable for every issued invoice.</summary>
public sealed class InvoiceConsumer : BackgroundService
{
    private static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web);

    private readonly Ledger _ledger;
    private readonly ILogger<InvoiceConsumer> _logger;
    private readonly ConsumerConfig _config;

    public InvoiceConsumer(Ledger ledger, ILogger<InvoiceConsumer> logger)
    {
        _ledger = ledger;
        _logger = logger;
        _config = new ConsumerConfig
        {
            BootstrapServers = Environment.GetEnvironmentVariable("KAFKA_BROKERS") ?? "kafka:9092",
            GroupId = "accounting",
            AutoOffsetReset = AutoOffsetReset.Earliest,
            EnableAutoCommit = false,
        };
    }

    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        Task.Factory.StartNew(() => Consume(stoppingToken), stoppingToken, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private void Consume(CancellationToken ct)
    {
        using var consumer = new ConsumerBuilder<string, string>(_config).Build();
        consumer.Subscribe("invoices.issued");
        try
        {
            while (!ct.IsCancellationRequested)
            {
                var result = consumer.Consume(ct);
                var invoice = JsonSerializer.Deserialize<InvoiceIssued>(result.Message.Value, JsonOptions);
                if (invoice is not null)
                {
                    _ledger.RecordReceivable(invoice.OrderId, invoice.InvoiceId, invoice.TotalUnits, invoice.Currency);
                    _logger.LogInformation("Booked invoice {InvoiceId}; its order arrived on orders.created", invoice.InvoiceId);
                }
                consumer.Commit(result);
            }
        }
        catch (OperationCanceledException)
        {
            // Shutting down: the last uncommitted invoice is redelivered and booked idempotently.
        }
        finally
        {
            consumer.Close();
        }
    }
}
