"""Packing: selection within the budget, compression and rendering of a ready query result."""
