"""The charts (pyqtgraph): the shared frame, layout helpers that keep texts uncut at laptop sizes, the live charts, the
step chart and the peak marks."""
