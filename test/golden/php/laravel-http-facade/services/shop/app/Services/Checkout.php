<?php

namespace App\Services;

use Illuminate\Support\Facades\Http;

class Checkout
{
    public function order(string $id): array
    {
        return Http::get(config('services.orders.url') . '/orders/' . $id)->json();
    }

    public function pay(string $token, array $payment): void
    {
        Http::withToken($token)->baseUrl(env('PAYMENTS_URL', 'http://payments'))->post('/charges', $payment);
    }
}
