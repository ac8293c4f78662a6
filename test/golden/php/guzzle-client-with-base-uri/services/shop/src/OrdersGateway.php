<?php

namespace Shop\Clients;

use GuzzleHttp\Client;

class OrdersGateway
{
    private const INVENTORY = 'http://inventory:8080/api';

    private Client $client;

    public function __construct()
    {
        $this->client = new Client(['base_uri' => getenv('ORDERS_URL') ?: 'http://orders:8080', 'timeout' => 2]);
    }

    public function find(string $id): array
    {
        $response = $this->client->get("/orders/{$id}");
        return json_decode((string) $response->getBody(), true);
    }

    public function create(array $order): void
    {
        $this->client->request('POST', '/orders', ['json' => $order]);
        $this->client->postAsync(sprintf('/orders/%s/events', $order['id']))->wait();
    }

    public function stock(string $sku): void
    {
        $inventory = new \GuzzleHttp\Client();
        $inventory->get(self::INVENTORY . '/stock/' . $sku);
    }

    public function forward(string $path): void
    {
        $this->client->get($path);
    }
}
