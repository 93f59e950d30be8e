"""Governance services: procedures, quarantine resolution, the admin console."""
