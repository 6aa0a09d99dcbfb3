"""A tiny shop: the sample project of `skillbox tour`."""

from .cart import Cart
from .pricing import total

__all__ = ["Cart", "total"]
