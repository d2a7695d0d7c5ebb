from shop.cart import Cart


def receipt(cart: Cart) -> str:
    lines = [f"{quantity} x {product.name}" for product, quantity in cart.lines]
    lines.append(f"total: {cart.total().format()}")
    return "\n".join(lines)


if __name__ == "__main__":
    cart = Cart()
    cart.add("tea", 2)
    cart.add("mug")
    print(receipt(cart))
