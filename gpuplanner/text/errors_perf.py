"""Messages of errors the user sees from the performance estimates (bad model shapes, parallel layouts,
settings). The engine raises them in English (``text.en``); the Chinese is for the UI and the report."""

# id: (English, Chinese)
ERRORS_PERF: dict[str, tuple[str, str]] = {}
