package com.shop.negative;

import com.vaadin.flow.router.Route;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.stereotype.Controller;

/** A Spring MVC controller named by its bean name: no mapping, no route. */
@Controller("cartController")
class CartPage {
    String show() { return "cart"; }
}

/** A Vaadin view. */
@Route("home")
class HomeView {}

/** A repository that Spring Data REST does not annotate here. */
interface OrderRepository extends JpaRepository<Order, Long> {}

/** Methods named like client verbs on an interface that is no client. */
interface Getter {
    String GET(String key);
}
