TAX = 0.2


def total(items):
    """Sum of prices with tax."""
    return with_tax(sum(item.price for item in items))


def with_tax(amount):
    # WHY: tax is applied once, on the sum, to avoid rounding drift
    return round(amount * (1 + TAX), 2)
