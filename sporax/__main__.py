"""``python -m sporax run script.py``."""

import sys

from .cli import main

sys.exit(main())
