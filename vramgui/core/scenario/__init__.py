"""The inputs of an estimate as frozen dataclasses: the Scenario and its sections, the model architecture with its
exact parameter count, the training strategy as a value."""
