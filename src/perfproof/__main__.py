import sys

from perfproof.cli import main

sys.exit(main())
