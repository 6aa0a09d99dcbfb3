from .pricing import total


class Item:
    def __init__(self, name, price):
        self.name = name
        self.price = price


class Cart:
    """Items a customer is about to buy."""

    def __init__(self):
        self.items = []

    def add(self, name, price):
        self.items.append(Item(name, price))
        return self

    def checkout(self):
        return total(self.items)
