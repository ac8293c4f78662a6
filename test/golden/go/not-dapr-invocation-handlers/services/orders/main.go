package main

import "context"

// A registry with a method of the same name, in a file that does not use Dapr's SDK: no route.
type registry struct{}

func (registry) AddServiceInvocationHandler(name string, fn func(context.Context) error) error {
	return nil
}

func main() {
	var r registry
	_ = r.AddServiceInvocationHandler("/orders", func(context.Context) error { return nil })
}
