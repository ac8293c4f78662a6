using Dapr;

var app = WebApplication.CreateBuilder(args).Build();
app.UseCloudEvents();
app.MapSubscribeHandler();

app.MapPost("/cancelled", [Topic("orderpubsub", "orders-cancelled")] (Order order) => Results.Ok());
app.MapPost("/shipped", (Order order) => Results.Ok()).WithTopic("orderpubsub", "orders-shipped");

app.Run();

public record Order(int Id);
