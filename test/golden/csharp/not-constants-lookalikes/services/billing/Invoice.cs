namespace Billing;

public class Invoice
{
    // A member access on a type of another file that is no broker destination.
    public string Describe(Options options) => Topics.OrderCreated.ToString() + options.Topic;

    public void Log(ILogger logger) => logger.Publish(Topics.OrderCreated);
}
