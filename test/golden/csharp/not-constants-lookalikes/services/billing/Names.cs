namespace Billing.Internal;

// None of these is a string constant another file can use.
public enum Topics
{
    OrderCreated,
    OrderShipped,
}

public class Names
{
    private const string OrderCreated = "billing.private";
    const string Hidden = "billing.hidden";
    public static string Mutable = "billing.mutable";
    public readonly string PerInstance = "billing.instance";
    public const string ApiKey = "not-a-topic-but-a-secret";
    public const string FromEnvironment = nameof(Names) + Suffix;
    public static string Suffix => "x";
}
