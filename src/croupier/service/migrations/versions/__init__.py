"""The service's revisions, ``s0001`` first."""
