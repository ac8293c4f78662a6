using Grpc.Core;
using Grpc.Net.Client;
using Shop.Payment.V1;

namespace Accounting;

/// <summary>Pulls settlements from the payment service every few minutes and books them.</summary>
public sealed class SettlementReconciler : BackgroundService
{
    private static readonly TimeSpan Interval = TimeSpan.FromMinutes(5);

    private readonly Ledger _ledger;
    private readonly ILogger<SettlementReconciler> _logger;
    private readonly GrpcChannel _channel;
    private readonly PaymentService.PaymentServiceClient _payments;

    public SettlementReconciler(Ledger ledger, ILogger<SettlementReconciler> logger)
    {
        _ledger = ledger;
        _logger = logger;
        _channel = GrpcChannel.ForAddress(Environment.GetEnvironmentVariable("PAYMENT_GRPC_URL") ?? "http://payment:50051");
        _payments = new PaymentService.PaymentServiceClient(_channel);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(Interval);
        do
        {
            try
            {
                await ReconcileAsync(stoppingToken);
            }
            catch (RpcException e) when (e.StatusCode == StatusCode.Unavailable)
            {
                _logger.LogWarning("Payment service unavailable; retrying in {Interval}", Interval);
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }

    private async Task ReconcileAsync(CancellationToken ct)
    {
        var request = new StreamSettlementsRequest { SinceUnixMs = _ledger.LastSettlementUnixMs() };
        using var call = _payments.StreamSettlements(request, cancellationToken: ct);
        var booked = 0;
        await foreach (var settlement in call.ResponseStream.ReadAllAsync(ct))
        {
            var amount = settlement.Amount;
            _ledger.RecordSettlement(
                settlement.OrderId, settlement.PaymentId, amount.Units, amount.CurrencyCode, settlement.SettledAtUnixMs);
            booked++;
        }
        _logger.LogInformation("Reconciled {Count} settlements", booked);
    }

    public override void Dispose()
    {
        _channel.Dispose();
        base.Dispose();
    }
}
