"""Lapau, the web application (the factory arrives with the foundation)."""
