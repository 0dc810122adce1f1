"""One module per schema revision of the progressive ledger, oldest first."""
