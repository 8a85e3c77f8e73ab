"""Table profiles: what a casino chose for one table (banking, limits, paytables, House Way,
procedures), read from ``config/profiles/*.toml`` and validated strictly.

Modules: ``schema`` (the strict TOML reader and its error), ``model`` (the profile values),
``loader`` (finding, reading and checking profiles). This package imports nothing at import
time so that :mod:`dealer_console.paytables` can share the reader without a cycle.
"""
