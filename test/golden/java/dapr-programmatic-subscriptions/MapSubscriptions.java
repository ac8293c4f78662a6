package shop.shipping;

import static shop.messaging.Topics.SHIPMENTS;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class MapSubscriptions {
    @RequestMapping(value = "/dapr/subscribe", method = RequestMethod.GET)
    public List<Map<String, String>> subscribe(String tenant) {
        return List.of(
                Map.of("pubsubname", "pubsub", "topic", SHIPMENTS, "route", "/shipments"),
                Map.of("pubsubname", "pubsub", "topic", tenant + "-events", "route", "/events"));
    }
}
