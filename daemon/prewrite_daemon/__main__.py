import sys

from prewrite_daemon.app import main

if __name__ == "__main__":
    sys.exit(main())
