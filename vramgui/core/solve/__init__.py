"""Reverse solves over the estimate: largest model, micro-batch, sequence or LoRA rank that fits, fewest GPUs, cheapest
strategy."""
