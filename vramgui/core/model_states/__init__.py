"""Model states per GPU (parameters, gradients, optimizer states) under each accounting convention (paper, deepspeed,
megatron), with the precision recipes and FP8 weight copies."""
