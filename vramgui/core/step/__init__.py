"""One training step on one GPU: what is live at each moment, the terms of the step peak, and the components the charts
stack."""
