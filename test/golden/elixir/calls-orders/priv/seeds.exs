alias Shop.Orders

Orders.place([])
IO.puts("seeded")
run_local()
