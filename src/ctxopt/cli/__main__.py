from ctxopt.cli import main

main()
