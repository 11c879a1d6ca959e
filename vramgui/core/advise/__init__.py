"""The adviser: when a scenario does not fit, the concrete ways out, each with its peak."""
