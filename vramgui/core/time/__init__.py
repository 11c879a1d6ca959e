"""How long a training step takes and what a run costs: FLOPs from the architecture, step time per GPU as named
terms (compute, recompute, exposed communication, pipeline bubble, optimizer, offload), MFU/HFU, days and price."""
