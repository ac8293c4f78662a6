<?php

namespace App;

use App\Attributes\Route;

class Menu
{
    // An attribute of the application's own, named Route: no Symfony import.
    #[Route('/menu/{id}', methods: ['GET'])]
    public function show(int $id)
    {
    }

    /**
     * @Route("/menu", methods={"POST"})
     */
    public function create()
    {
    }
}
