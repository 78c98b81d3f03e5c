"""`python -m topicsetsize`: the same as the `topicsetsize` command."""

import sys

from .cli import main

sys.exit(main())
