<?php

const RATES = 'http://currency:7000';

function rate(string $code): float
{
    return (float) file_get_contents(RATES . '/rates/' . $code);
}

function convert(array $body): string
{
    $context = stream_context_create(['http' => ['method' => 'POST', 'content' => json_encode($body)]]);
    return file_get_contents('http://currency:7000/convert', false, $context);
}
