"""The input form as data: which registry fields the window shows, in which group, with which words, and how the model
is chosen."""
