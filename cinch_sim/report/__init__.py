"""The strategy report: ``build`` runs the studies, ``sections`` lays out each
one for players, ``charts`` draws its charts, ``render`` writes the page as HTML
and Markdown."""
