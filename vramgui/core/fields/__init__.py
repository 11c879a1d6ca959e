"""The field registry: every input of a Scenario once, by its dotted path, with its range, choices, words, flag and the
rule for when it applies; single-value checks and the cross-field validation."""
