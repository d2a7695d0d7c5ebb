import sys

from prewrite_daemon.launch import main

if __name__ == "__main__":
    sys.exit(main())
