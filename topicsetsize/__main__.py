"""`python -m topicsetsize`: the same as the `topicsetsize` command."""

from .cli import console

console()
