from shop.catalog import Product, find
from shop.money import Money


class Cart:
    def __init__(self) -> None:
        self.lines: list[tuple[Product, int]] = []

    def add(self, sku: str, quantity: int = 1) -> None:
        product = find(sku)
        if product is None:
            raise KeyError(sku)
        self.lines.append((product, quantity))

    def total(self) -> Money:
        total = Money(0)
        for product, quantity in self.lines:
            total = total + Money(product.price.cents * quantity)
        return total
