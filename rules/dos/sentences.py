"""The DoS event codes, for ``EventLog``: their texts are in
rules/dos/text.py and the catalogs (``rules.narration``)."""

from rules.dos.text import TEXTS
from rules.narration import codes

SENTENCES = codes(TEXTS)
