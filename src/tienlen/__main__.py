"""``python -m tienlen``: the command line (see `tienlen.cli`)."""

import sys

from tienlen.cli import main

if __name__ == "__main__":
    sys.exit(main())
