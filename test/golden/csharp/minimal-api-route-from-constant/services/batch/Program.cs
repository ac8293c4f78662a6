var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

var cronBindingName = "cron";
const string Prefix = "/api";

// Triggered by a Dapr input binding.
app.MapPost("/" + cronBindingName, () => Results.Ok());
app.MapGet($"{Prefix}/orders/{{id}}", (int id) => Results.Ok(id));
app.MapGet("/" + args[0], () => Results.Ok());

app.Run();
