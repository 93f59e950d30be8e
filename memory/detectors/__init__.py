"""Content detectors of the write policy, one module per kind of finding.

Every detector reads the detection form of the text (``memory.text_normalize``), so
look-alike letters, invisible characters, full-width Latin and spaced-out words cannot hide
what it looks for. Each returns finding codes, never the matched text, so findings can be
logged and audited safely; ``memory.content_rules`` is the facade the policy calls.
"""
