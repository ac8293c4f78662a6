def place(
    order_id: str,
    sku: str,
) -> None:
    """Only a docstring."""
