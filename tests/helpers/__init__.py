"""Helpers shared by the test modules (plain functions, classes and constants; the
fixtures stay in the conftest files, which build on these). Import them explicitly:
``from tests.helpers.cast import candidate``."""
