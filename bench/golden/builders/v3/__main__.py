"""``python -m bench.golden.builders.v3 [--check]``: rebuild bench/golden/recall_v3.json."""

from .assemble import main

main()
