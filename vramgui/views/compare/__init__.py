"""The Compare tab's widgets: the stacked bars of pinned scenarios, their table and the exported image."""
