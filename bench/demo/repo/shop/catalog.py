from dataclasses import dataclass

from shop.money import Money


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price: Money


CATALOG: dict[str, Product] = {
    "tea": Product("tea", "Green tea", Money(450)),
    "mug": Product("mug", "Mug", Money(1200)),
}


def find(sku: str) -> Product | None:
    return CATALOG.get(sku)
