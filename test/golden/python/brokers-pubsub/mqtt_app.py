import paho.mqtt.client as mqtt
import paho.mqtt.publish as publish

client = mqtt.Client()
client.connect("broker", 1883)
client.subscribe("sensors/+/temperature")
client.subscribe([("alarms/#", 1), ("status", 0)])
client.publish("sensors/kitchen/temperature", payload="21")
publish.single("status", "online", hostname="broker")
