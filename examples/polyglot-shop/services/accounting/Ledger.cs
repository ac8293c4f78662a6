using System.Collections.Concurrent;

namespace Accounting;

public sealed record LedgerEntry(
    string OrderId,
    string? InvoiceId,
    long ReceivableUnits,
    string Currency,
    string? PaymentId,
    long SettledUnits,
    long? SettledAtUnixMs)
{
    public bool Balanced => InvoiceId is not null && PaymentId is not null && ReceivableUnits == SettledUnits;
}

/// <summary>Receivables (from invoices) matched against settlements (from payment), per order.</summary>
public sealed class Ledger
{
    private readonly ConcurrentDictionary<string, LedgerEntry> _entries = new();

    public LedgerEntry? Find(string orderId) => _entries.TryGetValue(orderId, out var entry) ? entry : null;

    public void RecordReceivable(string orderId, string invoiceId, long units, string currency) =>
        _entries.AddOrUpdate(
            orderId,
            _ => new LedgerEntry(orderId, invoiceId, units, currency, null, 0, null),
            (_, e) => e with { InvoiceId = invoiceId, ReceivableUnits = units, Currency = currency });

    public void RecordSettlement(string orderId, string paymentId, long units, string currency, long settledAtUnixMs) =>
        _entries.AddOrUpdate(
            orderId,
            _ => new LedgerEntry(orderId, null, 0, currency, paymentId, units, settledAtUnixMs),
            (_, e) => e with { PaymentId = paymentId, SettledUnits = units, SettledAtUnixMs = settledAtUnixMs });

    public long LastSettlementUnixMs() =>
        _entries.Values.Select(e => e.SettledAtUnixMs ?? 0).DefaultIfEmpty(0).Max();
}
