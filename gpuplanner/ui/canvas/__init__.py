"""The topology canvas: scene (model → items), view (gestures), items, the link layer and its tiles."""
