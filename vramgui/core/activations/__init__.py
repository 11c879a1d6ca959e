"""Activation memory per GPU: what autograd keeps for backward, per profile (hf, fused), with MoE, LoRA and
FP8 inputs."""
