from shop import Cart


def main():
    cart = Cart().add("tea", 3.5).add("cake", 4.0)
    print(cart.checkout())


if __name__ == "__main__":
    main()
