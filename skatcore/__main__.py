"""``python -m skatcore ...``: the ``skat`` command, for a Python without the script on its path."""

from skatcore.cli import main

raise SystemExit(main())
