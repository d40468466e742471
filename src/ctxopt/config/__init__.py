"""Configuration: Settings merged in layers; every environment variable is read here."""
