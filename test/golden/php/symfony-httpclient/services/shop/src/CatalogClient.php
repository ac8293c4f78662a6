<?php

namespace Shop\Catalog;

use Symfony\Component\HttpClient\HttpClient;
use Symfony\Contracts\HttpClient\HttpClientInterface;

final class CatalogClient
{
    public function __construct(private HttpClientInterface $client)
    {
    }

    public function item(string $id): array
    {
        return $this->client->request('GET', 'http://catalog:8080/items/' . $id)->toArray();
    }

    public function charge(array $payload): void
    {
        $payments = HttpClient::createForBaseUri($_ENV['PAYMENTS_URL']);
        $payments->request('POST', '/charges', ['json' => $payload]);
        $scoped = HttpClient::create()->withOptions(['base_uri' => 'http://shipping:9000']);
        $scoped->request('PUT', "/shipments/{$payload['order']}");
    }
}
