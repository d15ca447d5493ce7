import sys

from inscoqa.cli import main

sys.exit(main())
