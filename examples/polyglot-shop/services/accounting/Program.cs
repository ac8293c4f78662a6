using Accounting;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddSingleton<Ledger>();
builder.Services.AddHttpClient<PaymentLookup>();
builder.Services.AddHostedService<InvoiceConsumer>();
builder.Services.AddHostedService<SettlementReconciler>();

var app = builder.Build();

app.MapGet("/ledger/{orderId}", async (string orderId, Ledger ledger, PaymentLookup payments, CancellationToken ct) =>
{
    var entry = ledger.Find(orderId);
    if (entry is null)
    {
        return Results.NotFound();
    }

    var payment = entry.PaymentId is null ? null : await payments.GetAsync(entry.PaymentId, ct);
    return Results.Ok(new { entry, payment });
});

app.Run();
