"""Serving memory: weights in each storage format, the KV cache as each engine allocates it, the prefill peak."""
