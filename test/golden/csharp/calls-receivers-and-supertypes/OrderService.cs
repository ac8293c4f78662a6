using System;
using System.Collections.Generic;
using Shop.Billing;
using Audit = Shop.Audit.AuditLog;

namespace Shop.Orders;

public interface IOrderRepo : IRepo<Order>
{
    Order Find(string id);

    Order FindOrFail(string id) => Find(id) ?? throw new InvalidOperationException(id);
}

public class OrderService : BaseService, IOrderService
{
    private readonly IOrderRepo _repo;
    private readonly Audit _audit = new Audit();
    private Mailer Mailer { get; } = new();

    public OrderService(IOrderRepo repo, ILogger<OrderService> logger) : base(logger)
    {
        _repo = repo;
    }

    public Order Place(string id, IBilling billing)
    {
        var order = _repo.Find(id);
        billing.Charge(order);
        this._audit.Record(id);
        Audit.Flush();
        var totals = Totals.Of(order);
        Validate(order);
        this.Log(id);
        base.Log(id);
        Mailer.Send(order.Email());
        order.Lines().Select(line => line.Price()).ToList().ForEach(Add);
        order?.Cancel();
        void Local() => Console.WriteLine(id);
        Local();
        if (billing is CardBilling card) card.Refund<Order>(order);
        foreach (Order pending in _repo.Pending())
        {
            pending.Cancel();
        }
        return new Order(id).WithTotals(totals);
    }

    private void Validate(Order order) => OrderRules.Check(order);
}

public record Totals(decimal Amount) : ITotals;

public class Program
{
    public static void Main(string[] args)
    {
        var service = new OrderService(new InMemoryRepo(), null);
        service.Place("1", new CardBilling());
    }
}
