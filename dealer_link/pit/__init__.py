"""The pit: every table's report on the link's server, read by the podium (``docs/pit.md``)."""
