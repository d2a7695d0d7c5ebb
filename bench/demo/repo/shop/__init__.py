"""A tiny shop: the bundled example prewrite's demo checks patches against."""
