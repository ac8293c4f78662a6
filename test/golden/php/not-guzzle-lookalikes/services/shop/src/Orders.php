<?php

namespace Shop;

use App\Models\Client;
use Illuminate\Support\Collection;

class Orders
{
    public function __construct(private Collection $items, private $client)
    {
    }

    public function handle(Request $request): void
    {
        $id = $request->get('id');
        $this->items->get('/orders/' . $id);
        $this->client->get('/orders');
        $model = new Client(['base_uri' => 'http://not-guzzle']);
        $model->get('/orders');
        $cache = cache();
        $cache->delete('/orders/' . $id);
        $text = '$client->get("/orders")';
    }
}
