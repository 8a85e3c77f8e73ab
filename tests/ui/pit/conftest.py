"""The pit's tests run on the link's real PostgreSQL (``tests/link/conftest.py``)."""

from tests.link.conftest import link_dsn, pg_server

__all__ = ["link_dsn", "pg_server"]
