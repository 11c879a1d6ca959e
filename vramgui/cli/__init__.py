"""The command line: a Qt-free front end over io and core (commands, solve answers, the adviser's lines, options built
from the field registry, text tables)."""
