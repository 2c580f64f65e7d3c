"""The Python client is its own distribution (clients/python): its tests import it from its source."""

import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "clients" / "python" / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))
