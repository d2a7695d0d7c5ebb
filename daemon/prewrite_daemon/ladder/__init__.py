"""The validation ladder: cheapest rung first, the first failure ends it."""
