"""Documents already read as text or data: scenario files (schema, versions, migrations), Hugging Face config.json
mapped onto an Architecture, the preset catalogue, and the capped JSON parser they share."""
