"""Benchmarks: each `benchmarks/NAME.py` with a top-level `main()` runs as `./dev bench NAME`.

`main()` takes no required argument (it parses `sys.argv[1:]`, whose `sys.argv[0]` is
`./dev bench NAME`), prints a PASS or FAIL line per target and returns the exit code; the
first line of the module's docstring is its entry in `./dev help`. Nothing else registers it.
"""
