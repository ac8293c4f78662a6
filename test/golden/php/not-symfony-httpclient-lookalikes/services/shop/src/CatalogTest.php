<?php

namespace Shop\Tests;

use Symfony\Bundle\FrameworkBundle\Test\WebTestCase;

class CatalogTest extends WebTestCase
{
    public function testItem(): void
    {
        // The test browser requests the application itself: no service-to-service call.
        $browser = static::createClient();
        $browser->request('GET', '/items/1');
        $this->client->request('GET', '/items/2');
    }
}
