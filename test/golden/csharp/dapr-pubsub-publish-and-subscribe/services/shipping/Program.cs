// Programmatic subscriptions: the sidecar reads them from GET /dapr/subscribe.
var app = WebApplication.CreateBuilder(args).Build();

app.MapGet("/dapr/subscribe", () => Results.Json(new[]
{
    new { pubsubname = "orderpubsub", topic = "orders", route = "/orders" },
    new { pubsubname = "orderpubsub", topic = Environment.GetEnvironmentVariable("RETURNS_TOPIC") ?? "returns", route = "/returns" },
}));
app.MapPost("/orders", (Order order) => Results.Ok());

app.Run();

public record Order(int Id);
