global using Shop.EventBus.Abstractions;
global using Shop.EventBus.Events;
