<?php

namespace App;

use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\Http;

class Lookalikes
{
    public function run(): void
    {
        Cache::get('/orders');
        Http::fake(['orders/*' => Http::response(['ok' => true])]);
        $http = new HttpKernel();
        $http->get('/orders');
    }
}
