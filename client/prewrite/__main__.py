import sys

from prewrite.cli import main

sys.exit(main())
