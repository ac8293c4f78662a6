<?php

use App\Http\Controllers\OrderController;
use App\Http\Controllers\PhotoController;
use Illuminate\Support\Facades\Route;

Route::prefix('v1')->group(function () {
    Route::apiResource('orders', OrderController::class);
    Route::resource('photos', PhotoController::class)->only(['index', 'show']);
    Route::apiResource('orders.items', OrderItemController::class)->except(['destroy']);
});
