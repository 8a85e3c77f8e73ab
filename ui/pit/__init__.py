"""The pit's screen on a podium PC (``dealer-console pit``, ``docs/pit.md``)."""
