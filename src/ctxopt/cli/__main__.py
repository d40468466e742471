try:
    from ctxopt.cli import main
except KeyboardInterrupt:  # Ctrl-C while starting up: no traceback
    raise SystemExit(130) from None

main()
