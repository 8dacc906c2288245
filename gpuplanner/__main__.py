import sys

from gpuplanner.cli import main

sys.exit(main())
