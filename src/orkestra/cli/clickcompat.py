"""The click that typer runs on. Typer 0.29 ships its own copy (`typer._click`); command objects
from typer and from this module must come from the same copy, so everything imports it here."""

from typer import _click as click

__all__ = ["click"]
