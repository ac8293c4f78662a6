<?php

function load(string $path): string
{
    $config = file_get_contents(__DIR__ . '/config.json');
    $data = file_get_contents($path);
    $fh = fopen('php://stdin', 'r');
    return $config . $data;
}
