using System.Collections.Generic;

namespace Shop.Notifications;

// Same method names, no broker library imported.
public class Notifier
{
    private readonly INotificationHub _hub;

    public void Send(string json)
    {
        _hub.BasicPublish("orders", "order.placed", null, json);
        _hub.BasicConsume("billing", true, null);
        _hub.Publish("orders", json);
        _cache.Subscribe("orders", OnChange);
    }
}
