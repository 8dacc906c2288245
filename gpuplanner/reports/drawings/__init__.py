"""Vector drawings of the plan (reportlab graphics): topology, rack elevations, charts. They go into the PDF
and, through ``gpuplanner.reports.images``, into SVG and PNG files."""
