"""Fine-tuning with LoRA and QLoRA: adapters, trainable counts, the frozen base in its storage format, and what the
estimate needs of them."""
