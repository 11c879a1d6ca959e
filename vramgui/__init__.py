"""vramgui - plan the GPU memory of a training run before booking GPUs."""

__version__ = "0.1.0"
