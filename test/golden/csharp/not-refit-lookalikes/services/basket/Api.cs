namespace Basket;

// Attributes named like Refit's, in a file that does not use Refit.
public interface IQueries
{
    [Get("/orders/{id}")]
    Task<Order> GetOrder(string id);
}

public class Controller
{
    [Post("/orders")]
    public void Create() { }

    public object Build() => RestService.Create<IQueries>();
}
