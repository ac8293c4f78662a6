using System.ComponentModel.DataAnnotations;

namespace Shop.Orders;

// A [Topic] attribute and a PublishEventAsync method of the application's own, no Dapr imported.
public class TopicAttribute : Attribute
{
    public TopicAttribute(string area, string name) { }
}

public class Forum
{
    [Topic("forum", "orders")]
    public void Post() { }

    public Task Notify(IEventSink sink) => sink.PublishEventAsync("forum", "orders", new object());

    public void Tag(IBuilder builder) => builder.WithTopic("orders");
}
