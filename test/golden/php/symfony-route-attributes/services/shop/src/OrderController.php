<?php

namespace App\Controller;

use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\Routing\Attribute\Route;

#[Route('/api/orders', name: 'orders_')]
class OrderController extends AbstractController
{
    #[Route('/{id}', name: 'show', methods: ['GET'])]
    public function show(int $id): Response
    {
        return $this->json(['id' => $id]);
    }

    #[Route(path: '', name: 'create', methods: ['POST', 'PUT'])]
    public function create(): Response
    {
        return $this->json([], 201);
    }

    #[Route('/health')]
    public function health(): Response
    {
        return new Response('ok');
    }
}
