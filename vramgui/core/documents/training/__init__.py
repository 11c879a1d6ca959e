"""Training configs a user already has, read into vramgui's fields: DeepSpeed JSON, accelerate YAML, axolotl YAML,
LLaMA-Factory YAML, torchtune YAML and Hugging Face ``TrainingArguments`` JSON (docs/training-configs.md).

Pure: each reader takes a document already parsed (``vramgui.io.training_configs`` reads the file and the files it
points to) and says, key by key, what it took (a field path and its value), what it ignored (no effect on GPU
memory, or a key vramgui does not know) and what it could not resolve (a setting that changes memory but has no
vramgui input, or an ``"auto"`` nothing here fills). Nothing is dropped silently.
"""
