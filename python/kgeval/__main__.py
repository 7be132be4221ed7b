"""``python -m kgeval ARGS``: the ``kgeval`` console script (the binary, and
``kgeval model start|stop|status``)."""
from ._binary import main

main()
