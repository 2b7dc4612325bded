"""Re-exports under another name."""

from .shapes import Square as Sq  # noqa: F401
from .shapes import make_counter  # noqa: F401
