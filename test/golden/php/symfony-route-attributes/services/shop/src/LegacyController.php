<?php

namespace App\Controller;

use Symfony\Component\Routing\Annotation\Route;

/**
 * @Route("/legacy")
 */
class LegacyController
{
    /**
     * Cancels an order.
     * @Route("/orders/{id}/cancel", methods={"POST"})
     */
    public function cancel(int $id)
    {
    }
}
