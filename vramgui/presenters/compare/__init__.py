"""The Compare tab's presenter: the pinned scenarios, their view-models, CSV/PNG export and comparison files."""
