"""Configuration: Settings merged in layers (settings, values), paths, and the process
environment (environment); every environment variable ctxopt reads is read here."""
