from ctxopt import interrupts


def _main() -> None:
    try:
        from ctxopt.cli import main
    except KeyboardInterrupt:  # Ctrl-C while starting up: no traceback
        interrupts.note()
        raise SystemExit(interrupts.INTERRUPTED_EXIT_CODE) from None
    main()


interrupts.run_process(_main)
