<?php

define('PAYMENTS_URL', getenv('PAYMENTS_URL'));

function charge(string $orderId, array $payload): string
{
    $ch = curl_init(PAYMENTS_URL . '/charges/' . $orderId);
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($payload));
    $result = curl_exec($ch);
    curl_close($ch);
    return $result;
}

function refund(string $chargeId): void
{
    $handle = curl_init();
    curl_setopt_array($handle, [
        CURLOPT_URL => "http://payments:8080/charges/{$chargeId}",
        CURLOPT_CUSTOMREQUEST => 'DELETE',
    ]);
    curl_exec($handle);
}
