<?php

function probe(): void
{
    // A handle that is never given a URL sends nothing meshlens can name.
    $ch = curl_init();
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    $other = make_handle();
    curl_setopt($other, CURLOPT_URL, 'http://elsewhere/x');
    echo 'curl_init("http://orders/x")';
}
