"""The report's sections, in order; each ``build(ctx)`` returns its flowables."""
