package shop.messaging;

public interface Events {
    String PUBSUB = "pubsub";
    String REGISTRATION = "shipment-registration-events";
}
