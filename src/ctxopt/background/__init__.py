"""The background server: a warm process that runs `ctxopt query` and `ctxopt pack` for the
short-lived `ctxopt` processes of one user, so a call skips the imports, model loading and
index reads a fresh process pays for.

`address` names the socket (one per user, Python, ctxopt code and environment), `client` is
what the `ctxopt` command runs first (standard library only, nothing heavy imported), and
`server` is the process itself: it runs the very same command-line code on the caller's
stdin, stdout and stderr (passed over the socket), in the caller's directory and
environment, with the warm index state of `app.warm` lent to it.
"""
