package devices

import (
	mqtt "github.com/eclipse/paho.mqtt.golang"
)

func run(client mqtt.Client) {
	client.Publish("devices/telemetry", 1, false, "{}")
	client.Subscribe("devices/+/commands", 1, func(c mqtt.Client, m mqtt.Message) {})
}
