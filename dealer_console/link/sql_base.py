"""Names the link's SQL shares: its roles, its refusal's SQLSTATE, how its functions run."""

ADMIN_ROLE = "dealer_link_admin"
TABLE_ROLE = "dealer_link_table"
REFUSED = "LK001"
"""SQLSTATE of the link's own refusals: the server answered, wrote nothing, and says why."""
DEFINER = "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"
"""How every link function runs: with its owner's rights, on a pinned search path (a caller
cannot slip in a table or function of its own)."""
HOLD_S = 15
"""How long a table's place on the link stays its sender's without a pass (a connection left
behind by a table that went away holds it no longer)."""
HIT_GAP = 1_000_000
"""A restored copy of the link's database gives its next hit the number after the next
multiple of this: the tables cannot have recorded so many hits since the copy was made."""
