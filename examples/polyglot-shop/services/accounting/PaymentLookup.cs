using System.Net;
using System.Net.Http.Json;

namespace Accounting;

public sealed record PaymentView(string PaymentId, string OrderId, string Status, string CurrencyCode, long Units);

/// <summary>Reads one payment from the payment service's HTTP API.</summary>
public sealed class PaymentLookup
{
    private readonly HttpClient _http;
    private readonly string _paymentUrl;

    public PaymentLookup(HttpClient http)
    {
        _http = http;
        _paymentUrl = Environment.GetEnvironmentVariable("PAYMENT_URL")
            ?? throw new InvalidOperationException("PAYMENT_URL is not set");
    }

    public async Task<PaymentView?> GetAsync(string paymentId, CancellationToken ct)
    {
        using var response = await _http.GetAsync($"{_paymentUrl}/payments/{paymentId}", ct);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadFromJsonAsync<PaymentView>(cancellationToken: ct);
    }
}
