"""The strategy report: the analyses run, laid out as HTML and Markdown."""
