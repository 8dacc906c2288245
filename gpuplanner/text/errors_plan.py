"""Messages of errors the user sees from the plan analysis: scenarios, workloads on the plan, assumption
files. The engine raises them in English (``text.en``); the Chinese is for the UI and the report."""

# id: (English, Chinese)
ERRORS_PLAN: dict[str, tuple[str, str]] = {}
