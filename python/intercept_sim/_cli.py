"""The ``intercept-sim`` console script: the binary's own command line, run in this process."""

import sys

from . import _native


def main() -> int:
    """Runs the command line with this process's arguments and returns its exit status."""
    return _native.command_line(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
