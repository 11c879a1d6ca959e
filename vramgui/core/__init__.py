"""vramgui's calculation core: pure Python, no Qt. Computes in bytes; every formula cites its source."""
