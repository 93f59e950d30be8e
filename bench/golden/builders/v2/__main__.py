"""``python -m bench.golden.builders.v2 [--check]``: rebuild bench/golden/recall_v2.json."""

from .assemble import main

main()
