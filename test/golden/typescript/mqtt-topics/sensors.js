const mqtt = require('mqtt');

const client = mqtt.connect(process.env.MQTT_URL || 'mqtt://localhost:1883');
const BASE = 'home/sensors';

client.on('connect', () => {
  client.subscribe(`${BASE}/+/temperature`);
  client.subscribe({ 'home/alarms/#': { qos: 1 }, 'home/doors': { qos: 0 } });
  client.subscribe(['home/lights/+', 'home/plugs/+']);
});

function report(room, value) {
  client.publish(`${BASE}/${room}/temperature`, String(value));
  client.publish('home/heartbeat', 'ok', { retain: true });
}

module.exports = { report };
