"""The link's real PostgreSQL (``tests/link/conftest.py``) for the screens that show a link."""

from tests.link.conftest import link_dsn, pg_server

__all__ = ["link_dsn", "pg_server"]
