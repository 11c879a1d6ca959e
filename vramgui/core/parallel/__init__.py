"""The parallel layout: data-parallel size, nodes, the most loaded pipeline stage, and which GPU counts a layout
accepts."""
