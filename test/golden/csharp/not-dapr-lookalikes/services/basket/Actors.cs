namespace Basket;

public class Invoker
{
    private readonly IActorProxy _actor;

    public Invoker(IActorProxy actor) => _actor = actor;

    // An actor proxy's method of the same name is no service invocation.
    public Task Run() => _actor.InvokeMethodAsync("orders", "create");

    public Task Reflect(object target) => Reflection.InvokeMethodAsync(target, "Run");
}
