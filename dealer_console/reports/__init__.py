"""Reports over a time range read from the table database: the shift report's figures
(``shift``) and its PDF (``shift_pdf``). Pure Python; read-only connections only."""
