"""The facility floor plan: rows, aisles, racks by kW density, cooling and power units with their load."""
