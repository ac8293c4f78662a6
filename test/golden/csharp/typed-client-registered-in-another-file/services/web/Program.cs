var builder = WebApplication.CreateBuilder(args);

builder.Services.AddHttpClient<CatalogClient>(client =>
    client.BaseAddress = new Uri(builder.Configuration["CatalogUrl"]!));
builder.Services.AddHttpClient("basket", client =>
    client.BaseAddress = new Uri(Environment.GetEnvironmentVariable("BASKET_URL")!));

var app = builder.Build();
app.Run();
