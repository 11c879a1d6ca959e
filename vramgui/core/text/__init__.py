"""What a person reads and writes: the message type and its catalogues (ids with named parameters, rendered once in the
reader's language), the input error, and sizes and counts as people write them."""
