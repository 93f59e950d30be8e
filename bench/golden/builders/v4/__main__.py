"""``python -m bench.golden.builders.v4 [--check]``: rebuild bench/golden/recall_v4.json."""

from .assemble import main

main()
