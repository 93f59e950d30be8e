"""Operations: Prometheus metrics (``metrics``), structured JSON logs (``logs``) and
optional OpenTelemetry traces (``traces``).

This package is the bottom layer: it imports nothing from accounts, memory or governance,
so any of them may call into it. Everything recorded here is an id or a code, never memory
text, a query or a secret: label values pass through :func:`metrics.code`, log events
through the redaction in :mod:`logs`."""
